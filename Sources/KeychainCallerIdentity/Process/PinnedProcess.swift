import CKeychainSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A process held by a pidfd: as long as this object lives, the process it names cannot be
/// confused with another that later gets the same process id.
///
/// A pidfd keeps naming its process after that process has exited; what changes is what the
/// kernel says of it. `currentProcessID` reads the pidfd's `Pid:` line in
/// `/proc/self/fdinfo/N`: the process id while the process exists (running or a zombie), `-1`
/// once it has been reaped. Since a process id is not handed out again while its process
/// exists, a `Pid:` equal to the expected id after a read of `/proc/PID/...` proves that the
/// read was of the pinned process.
package final class PinnedProcess: Sendable {
    /// The process id it had when it was pinned.
    package let processID: Int32
    let descriptor: Int32

    init(descriptor: Int32, processID: Int32) {
        self.descriptor = descriptor
        self.processID = processID
    }

    deinit { close(descriptor) }

    /// The process id the kernel now gives for the pidfd: the process's own while it exists,
    /// nil once it has been reaped (or when fdinfo cannot be read, or the process is in a pid
    /// namespace this one cannot see, where the kernel says 0).
    package var currentProcessID: Int32? { Self.processID(ofPidfd: descriptor) }

    /// Whether the pinned process still exists and has not exited: its pid is still its own
    /// and it is not a zombie. A zombie's /proc files are mostly empty, so it is treated as gone.
    package var isRunning: Bool {
        guard currentProcessID == processID else { return false }
        // EPERM: the process is there but not ours to signal (a caller of another user, seen by
        // the system keeper, which keeps no CAP_KILL); only ESRCH says it is gone.
        let signalled = cks_pidfd_send_signal(descriptor, 0) == 0 || errno == EPERM
        return signalled && !ProcessStatus.isZombie(processID: processID)
    }

    /// Whether the process has exited (a zombie or reaped), in one system call: the kernel
    /// makes a pidfd readable once its process has exited. For checks on every request, where
    /// ``isRunning``'s two reads of /proc would cost more than the request. A pidfd that cannot
    /// be polled counts as exited.
    package var hasExited: Bool {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&poller, 1, 0)
            if ready < 0 && errno == EINTR { continue }
            return ready != 0
        }
    }

    static func processID(ofPidfd descriptor: Int32) -> Int32? {
        let fdinfo = Glibc.open("/proc/self/fdinfo", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fdinfo >= 0 else { return nil }
        defer { close(fdinfo) }
        guard case .success(let bytes) = BoundedFiles.read(String(descriptor), in: fdinfo, limit: 4096),
              let text = Text.validUTF8(bytes) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("Pid:") {
            guard let value = Int32(line.dropFirst(4).drop(while: { $0 == "\t" || $0 == " " })), value > 0 else { return nil }
            return value
        }
        return nil
    }
}
