package import KeychainCallerIdentity
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How a prompt names the program that asked for it, so that the person typing the password
/// knows who will get what it opens.
///
/// The name comes from the kernel, never from the client: the bus says which process made the
/// connection (`GetConnectionUnixProcessID`, from the socket's credentials), and
/// `/proc/PID/exe` says which executable that process runs. A path is any bytes but NUL and
/// of any length, so it is shown sanitized: every character that could move the text around or
/// hide part of it (control and format characters, bidirectional overrides among them, line
/// and paragraph separators) becomes U+FFFD, and a long path keeps its beginning and its end.
package enum CallerProgram {
    /// The most characters (Unicode scalars) of a path a prompt shows.
    package static let longestPath = 160

    /// The phrase a prompt's description opens with: "The program /usr/bin/secret-tool", or
    /// what keychaind can say when it cannot tell.
    package static func describe(processID: UInt32?) -> String {
        guard let processID else { return "A program keychaind could not identify" }
        guard let path = executable(ofProcess: processID) else {
            return "A program keychaind could not identify (process \(processID))"
        }
        return "The program \(displayed(path))"
    }

    /// The same phrase for a client of keychaind's sockets, from the executable its pinned
    /// identity shows (read through the pidfd's /proc directory when it connected).
    package static func describe(_ caller: CallerIdentity) -> String {
        guard let path = caller.executable?.path else {
            return "A program keychaind could not identify (process \(caller.processID))"
        }
        return "The program \(displayed(path))"
    }

    /// Text a client chose (a call's `kSecUseOperationPrompt`), quoted after the program's name:
    /// shown under the same rules as a path, so that it cannot break the prompt's lines, hide
    /// what follows it, or run on.
    package static func quoted(_ text: String) -> String {
        "\u{201C}\(displayed(text))\u{201D}"
    }

    /// A process as a log line names it: "/usr/bin/gnome-keyring-daemon (process 1234)", or
    /// "process 1234" alone when its executable cannot be read.
    package static func named(processID: UInt32) -> String {
        guard let path = executable(ofProcess: processID) else { return "process \(processID)" }
        return "\(displayed(path)) (process \(processID))"
    }

    /// The target of `/proc/PID/exe`, or nil when it cannot be read (the process is gone, or
    /// not dumpable).
    package static func executable(ofProcess processID: UInt32) -> String? {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX))
        let count = buffer.withUnsafeMutableBytes { bytes in
            readlink("/proc/\(processID)/exe", bytes.baseAddress!.assumingMemoryBound(to: CChar.self), bytes.count)
        }
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }

    /// `path` as a prompt shows it (see the type's description).
    package static func displayed(_ path: String) -> String {
        let shown = path.unicodeScalars.map { isSafeToShow($0) ? $0 : "\u{FFFD}" }
        guard shown.count > longestPath else { return text(shown[...]) }
        let tail = (longestPath - 1) / 2
        return text(shown.prefix(longestPath - 1 - tail)) + "\u{2026}" + text(shown.suffix(tail))
    }

    private static func isSafeToShow(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned: return false
        default: return true
        }
    }

    private static func text(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }
}
