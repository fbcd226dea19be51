import KeychainctlCommandLine
import CKeychainSystem
import KeychainStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A failure a credential helper reports: one message (never holding a secret) and exit 1.
package struct HelperFailure: Error, Sendable, Equatable {
    package let message: String
    /// The keychain status behind it, if a keychain call failed.
    package let status: Int32?

    package init(_ message: String, status: Int32? = nil) {
        self.message = message
        self.status = status
    }
}

/// The limits on what a helper reads: no credential is anywhere near them, and they keep a
/// hostile or runaway writer from making the helper hold unbounded memory.
package enum HelperLimits {
    /// The most one value (a `key=value` line's value, a JSON string) may hold.
    package static let valueBytes = 64 * 1024
    /// The most the whole input may hold.
    package static let inputBytes = 1024 * 1024
}

/// Standard input and output for the helpers, with read(2) and write(2) directly: no buffering
/// that could keep a secret in a library's buffer, bounded reads, and writes that survive EINTR.
package enum HelperIO {
    /// Reads standard input until end of input, or until `isComplete` says what was read is a
    /// whole request (git's blank line), at most ``HelperLimits/inputBytes`` bytes.
    package static func readInput(isComplete: ([UInt8]) -> Bool = { _ in false }) throws(HelperFailure) -> [UInt8] {
        var input: [UInt8] = []
        input.reserveCapacity(4096)
        var chunk = [UInt8](repeating: 0, count: 4096)
        defer { wipe(&chunk) }
        while true {
            let count = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                wipe(&input)
                throw HelperFailure("cannot read standard input (\(String(cString: strerror(errno)))).")
            }
            if count == 0 { return input }
            guard input.count + count <= HelperLimits.inputBytes else {
                wipe(&input)
                throw HelperFailure("the input is longer than \(HelperLimits.inputBytes) bytes.")
            }
            input += chunk[0..<count]
            if isComplete(input) { return input }
        }
    }

    package static func out(_ bytes: [UInt8]) { DescriptorOutput.write(STDOUT_FILENO, bytes) }
    package static func out(_ text: String) { DescriptorOutput.write(STDOUT_FILENO, Array(text.utf8)) }
    package static func err(_ text: String) { DescriptorOutput.write(STDERR_FILENO, Array(text.utf8)) }

    /// The name the helper was run as (the basename of argv[0]).
    package static func programName(default name: String) -> String {
        guard let path = CommandLine.arguments.first, let last = path.split(separator: "/").last else { return name }
        return String(last)
    }

    /// Overwrites `bytes` in place (when its storage is not shared) and empties it.
    package static func wipe(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { cks_secure_zero($0.baseAddress, $0.count) }
        bytes.removeAll()
    }

    /// Turns core dumps off before any secret is read, as keychainctl does: no crash may write
    /// a password to disk. Best effort.
    ///
    /// A helper served by keychaind's keeper stays dumpable and only limits its core size: a
    /// keeper running as the user cannot read a non-dumpable caller's root, and so cannot tell
    /// it from a sandboxed app, and refuses it (docs/isolation.md). What that gives up is the
    /// second half of the embedded helper's guard: a core pipe handler (`core_pattern "|…"`)
    /// ignores the size limit. The password the helper passes on is then in its memory only
    /// for the call, as in every other keeper client.
    package static func hardenProcess() {
        if case .served? = try? KeychainKeeper.fromEnvironment() {
            _ = cks_limit_core_dumps()
        } else {
            _ = cks_disable_core_dumps()
        }
        // A helper run by git or docker may have no open standard streams at all: a write to a
        // closed pipe must fail with EPIPE, not end the process before it can report.
        signal(SIGPIPE, SIG_IGN)
    }
}
