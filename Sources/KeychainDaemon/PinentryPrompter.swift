import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What a prompt asks a person.
package struct PasswordRequest: Sendable {
    package var description: String
    /// Shown above the field after a wrong try.
    package var error: String?

    package init(description: String, error: String? = nil) {
        self.description = description
        self.error = error
    }
}

/// What came back from a prompt. `CustomStringConvertible` so that logging one never shows a
/// password.
package enum PasswordAnswer: Sendable, CustomStringConvertible {
    case password(String)
    case cancelled
    /// No prompt could be shown (no pinentry program, no terminal or display); the reason says why.
    case unavailable(String)

    package var description: String {
        switch self {
        case .password: return "password(<hidden>)"
        case .cancelled: return "cancelled"
        case .unavailable(let reason): return "unavailable(\(reason))"
        }
    }
}

/// Something that can ask a person for the keychain password.
package protocol PasswordPrompter: Sendable {
    func askPassword(_ request: PasswordRequest) -> PasswordAnswer
}

/// Asks through pinentry, GnuPG's password prompter, so that the same daemon prompts in a
/// terminal (`pinentry-tty`, `pinentry-curses`) or on a desktop (`pinentry-gnome3`, `-qt`).
///
/// The program is chosen as gpg-agent chooses it: the one configured (``programVariable``),
/// else `pinentry` on the PATH (Debian points it at the preferred flavour with alternatives). A
/// terminal flavour needs to know which terminal to use: ``ttyVariable``, else `GPG_TTY`, as
/// gpg-agent's own `--ttyname`.
///
/// The conversation is the Assuan protocol pinentry speaks: `SETDESC`, `SETPROMPT`, `SETERROR`,
/// then `GETPIN`, answered by a `D` line (the password, percent-escaped) and `OK`, or an `ERR`
/// when the person cancels.
package struct PinentryPrompter: PasswordPrompter {
    package static let programVariable = "SWIFT_KEYCHAIN_PINENTRY"
    package static let ttyVariable = "SWIFT_KEYCHAIN_PINENTRY_TTY"

    let program: String?
    let tty: String?
    let environment: [String: String]

    package init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
        self.program = environment[Self.programVariable].flatMap { $0.isEmpty ? nil : $0 } ?? Self.onPath("pinentry", environment)
        self.tty = environment[Self.ttyVariable] ?? environment["GPG_TTY"]
    }

    package func askPassword(_ request: PasswordRequest) -> PasswordAnswer {
        guard let program else { return .unavailable("no pinentry program: install one (pinentry-tty, -curses, -gnome3) or set \(Self.programVariable)") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        var arguments: [String] = []
        if let tty { arguments += ["--ttyname", tty] }
        process.arguments = arguments
        process.environment = environment
        let toPinentry = Pipe(), fromPinentry = Pipe()
        process.standardInput = toPinentry
        process.standardOutput = fromPinentry
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return .unavailable("\(program) could not be started")
        }
        defer {
            try? toPinentry.fileHandleForWriting.close()
            process.waitUntilExit()
        }
        var reader = LineReader(handle: fromPinentry.fileHandleForReading)
        // The throwing write: a pinentry that has gone away is a failed write (EPIPE, with
        // SIGPIPE ignored by the daemon), never a trap in Foundation's non-throwing one.
        func send(_ line: String) { try? toPinentry.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8)) }
        func expectOK() -> Bool {
            while let line = reader.next() {
                if line.hasPrefix("OK") { return true }
                if line.hasPrefix("ERR") { return false }
            }
            return false
        }
        guard expectOK() else { return .unavailable("\(program) did not greet") }
        var commands = ["SETTITLE swift-keychain", "SETDESC \(Self.escaped(request.description))", "SETPROMPT Password:"]
        if let error = request.error { commands.append("SETERROR \(Self.escaped(error))") }
        for command in commands {
            send(command)
            guard expectOK() else { return .unavailable("\(program) refused a setting") }
        }
        send("GETPIN")
        var password: String?
        while let line = reader.next() {
            if line.hasPrefix("D ") {
                password = Self.unescaped(String(line.dropFirst(2)))
            } else if line.hasPrefix("OK") {
                send("BYE")
                return .password(password ?? "")
            } else if line.hasPrefix("ERR") {
                send("BYE")
                // 83886179 is GPG_ERR_CANCELED from the pinentry source; any other error means the
                // prompt could not be shown (no terminal, no display).
                return line.contains("83886179") || line.lowercased().contains("cancel") ? .cancelled : .unavailable("\(program) failed")
            }
        }
        return .unavailable("\(program) ended without an answer")
    }

    /// Assuan escapes `%`, CR and LF (and we escape every control character).
    static func escaped(_ text: String) -> String {
        var out: [UInt8] = []
        for byte in text.utf8 {
            if byte == UInt8(ascii: "%") || byte < 0x20 {
                out += Array(String(format: "%%%02X", byte).utf8)
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func unescaped(_ text: String) -> String {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
               let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func onPath(_ name: String, _ environment: [String: String]) -> String? {
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}

/// Reads lines from a pipe, a chunk at a time.
struct LineReader {
    static let longestLine = 64 * 1024
    let handle: FileHandle
    private var buffer: [UInt8] = []

    init(handle: FileHandle) { self.handle = handle }

    mutating func next() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                // The line may be the password (`D …`): overwrite it before the array lets go of it.
                for index in buffer.startIndex...newline { buffer[index] = 0 }
                buffer.removeSubrange(...newline)
                return line
            }
            // read(2) itself: it returns what has arrived (FileHandle's reads wait for a full
            // count or trap on errors). End of input and errors both end the conversation.
            var chunk = [UInt8](repeating: 0, count: 4096)
            defer { for index in chunk.indices { chunk[index] = 0 } }
            let count = chunk.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            buffer += chunk[..<count]
            // Assuan lines are at most 1,000 bytes; a program that sends an endless one is cut off.
            if buffer.count > Self.longestLine { return nil }
        }
    }
}
