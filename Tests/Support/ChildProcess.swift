public import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How a child process ended.
public struct ChildExit: Sendable {
    /// The exit code, or the signal number when it was killed (as `Process.terminationStatus`).
    public let terminationStatus: Int32
    /// Whether it exited or was killed by a signal (as `Process.terminationReason`).
    public let terminationReason: Process.TerminationReason
}

extension Process {
    /// Waits for the process to end and says how it ended.
    ///
    /// Use this instead of `waitUntilExit()`: on Linux, Foundation's child monitoring sometimes
    /// misses an exit (seen with SIGKILLed workers and with tmux), and `waitUntilExit()` then
    /// waits forever, hanging the whole test run. Here a child that has ended is reaped with
    /// `waitpid` if Foundation has not noticed it.
    public func waitForExit() -> ChildExit {
        let pid = processIdentifier
        var foundationReaped = false
        while true {
            if !isRunning {
                return ChildExit(terminationStatus: terminationStatus, terminationReason: terminationReason)
            }
            if !foundationReaped {
                var status: Int32 = 0
                let result = waitpid(pid, &status, WNOHANG)
                if result == pid {
                    // Decoded as <sys/wait.h> does: low 7 bits are the signal, next byte the exit code.
                    let signal = status & 0x7f
                    return signal == 0
                        ? ChildExit(terminationStatus: (status >> 8) & 0xff, terminationReason: .exit)
                        : ChildExit(terminationStatus: signal, terminationReason: .uncaughtSignal)
                }
                // ECHILD: Foundation reaped it and will flip isRunning shortly.
                if result < 0 && errno == ECHILD { foundationReaped = true }
            }
            usleep(1_000)
        }
    }
}
