import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What a prompt asks a person: a password, or (with `confirmation`) a yes or no.
package struct PasswordRequest: Sendable {
    package var description: String
    /// Shown above the field after a wrong try.
    package var error: String?
    /// Asks the person to confirm rather than to type a password; the text of the button that
    /// says yes (pinentry's `CONFIRM` with `SETOK`). The answer is `.confirmed` or `.cancelled`.
    package var confirmation: String?
    /// With `confirmation`, the text of the button that says no (pinentry's `SETCANCEL`), so a
    /// terminal prompt names both choices rather than only the yes.
    package var refusal: String?

    package init(description: String, error: String? = nil, confirmation: String? = nil, refusal: String? = nil) {
        self.description = description
        self.error = error
        self.confirmation = confirmation
        self.refusal = refusal
    }
}

/// What came back from a prompt. `CustomStringConvertible` so that logging one never shows a
/// password.
package enum PasswordAnswer: Sendable, CustomStringConvertible {
    case password(String)
    /// The person said yes to a confirmation.
    case confirmed
    case cancelled
    /// No prompt could be shown (no pinentry program, no terminal or display); the reason says why.
    case unavailable(String)

    package var description: String {
        switch self {
        case .password: return "password(<hidden>)"
        case .confirmed: return "confirmed"
        case .cancelled: return "cancelled"
        case .unavailable(let reason): return "unavailable(\(reason))"
        }
    }
}

/// Something that can ask a person for the keychain password.
package protocol PasswordPrompter: Sendable {
    func askPassword(_ request: PasswordRequest) -> PasswordAnswer
    /// Why no prompt can be shown at all, when that is known before one starts (no program):
    /// the daemon then refuses the client's `Prompt` call with it, so the client hears why.
    var unavailableReason: String? { get }
}

extension PasswordPrompter {
    package var unavailableReason: String? { nil }
}

/// Asks through pinentry, GnuPG's password prompter, so that the same daemon prompts in a
/// terminal (`pinentry-tty`, `pinentry-curses`) or on a desktop (`pinentry-gnome3`, `-qt`).
///
/// The program is chosen as gpg-agent chooses it: the one configured (``programVariable``: a
/// path, or a name looked up on the PATH as a shell looks it up), else `pinentry` on the PATH
/// (Debian points it at the preferred flavour with alternatives). A terminal flavour needs to
/// know which terminal to use (gpg-agent's `--ttyname`): ``ttyVariable``, else `GPG_TTY`, else
/// the terminal keychaind itself was started on, if any.
///
/// Each prompt runs one pinentry (``PinentryProcess``) in a session of its own, so that the
/// terminal of the shell that started keychaind cannot stop it, and waits for the person's
/// answer at most ``answerTimeout``. A prompt that cannot be shown (no program, a program that
/// ends, is stopped or stays silent) ends at once with the reason, instead of leaving the
/// client waiting.
///
/// The conversation is the Assuan protocol pinentry speaks: `SETDESC`, `SETPROMPT`, `SETERROR`,
/// then `GETPIN`, answered by a `D` line (the password, percent-escaped) and `OK`, or an `ERR`
/// when the person cancels.
package struct PinentryPrompter: PasswordPrompter {
    package static let programVariable = "SWIFT_KEYCHAIN_PINENTRY"
    package static let ttyVariable = "SWIFT_KEYCHAIN_PINENTRY_TTY"
    /// How long one prompt waits for the person to answer before it gives up: the prompt is
    /// then dismissed, as when no prompt can be shown, and a later call prompts anew.
    package static let answerTimeout: Duration = .seconds(120)

    let tty: String?
    let environment: [String: String]
    let answerTimeout: Duration

    package init(environment: [String: String] = ProcessInfo.processInfo.environment, answerTimeout: Duration = Self.answerTimeout) {
        self.environment = environment
        self.answerTimeout = answerTimeout
        self.tty = [environment[Self.ttyVariable], environment["GPG_TTY"]].compactMap { $0 }.first { !$0.isEmpty }
            ?? Self.ownTerminal()
    }

    /// The pinentry's path, or why there is none; looked up anew for each prompt, so that a
    /// pinentry installed while keychaind runs is found.
    var program: Result<String, PromptFailure> { Self.chooseProgram(environment) }

    package var unavailableReason: String? {
        guard case .failure(let failure) = program else { return nil }
        return failure.reason
    }

    package func askPassword(_ request: PasswordRequest) -> PasswordAnswer {
        let program: String
        switch self.program {
        case .success(let path): program = path
        case .failure(let failure): return .unavailable(failure.reason)
        }
        var arguments: [String] = []
        if let tty { arguments += ["--ttyname", tty] }
        let pinentry: PinentryProcess
        switch PinentryProcess.start(program, arguments: arguments, environment: environment, answerTimeout: answerTimeout) {
        case .success(let started): pinentry = started
        case .failure(let failure): return .unavailable(failure.reason)
        }
        defer { pinentry.end() }
        let name = pinentry.name
        var reader = LineReader(pinentry)
        /// Why the conversation ended early: the watch's reason when it ended the pinentry.
        func ended(_ otherwise: String) -> PasswordAnswer { .unavailable(pinentry.failure ?? otherwise) }
        func expectOK() -> Bool {
            while let line = reader.next() {
                if line.hasPrefix("OK") { return true }
                if line.hasPrefix("ERR") { return false }
            }
            return false
        }
        guard expectOK() else { return ended("\(name) did not greet") }
        var commands = ["SETTITLE swift-keychain", "SETDESC \(Self.escaped(request.description))"]
        if let confirmation = request.confirmation {
            commands.append("SETOK \(Self.escaped(confirmation))")
            if let refusal = request.refusal { commands.append("SETCANCEL \(Self.escaped(refusal))") }
        } else {
            commands.append("SETPROMPT Password:")
        }
        if let error = request.error { commands.append("SETERROR \(Self.escaped(error))") }
        for command in commands {
            pinentry.sendLine(command)
            guard expectOK() else { return ended("\(name) refused a setting") }
        }
        pinentry.sendLine(request.confirmation == nil ? "GETPIN" : "CONFIRM")
        var password: String?
        while let line = reader.next() {
            if line.hasPrefix("D ") {
                password = Self.unescaped(String(line.dropFirst(2)))
            } else if line.hasPrefix("OK") {
                pinentry.sendLine("BYE")
                if request.confirmation != nil { return .confirmed }
                return .password(password ?? "")
            } else if line.hasPrefix("ERR") {
                pinentry.sendLine("BYE")
                // 83886179 is GPG_ERR_CANCELED from the pinentry source; any other error means the
                // prompt could not be shown (no terminal, no display), which its text says.
                if line.contains("83886179") || line.lowercased().contains("cancel") { return .cancelled }
                return .unavailable("\(name) failed: \(Self.shown(line))")
            }
        }
        return ended("\(name) ended without an answer")
    }

    /// The configured program (a path as given, a bare name looked up on the PATH), else
    /// `pinentry` on the PATH; or the reason there is none.
    static func chooseProgram(_ environment: [String: String]) -> Result<String, PromptFailure> {
        guard let configured = environment[programVariable], !configured.isEmpty else {
            return onPath("pinentry", environment).map { .success($0) }
                ?? .failure(PromptFailure("no pinentry program on the PATH: install one (pinentry-tty, -curses, -gnome3) or set \(programVariable)"))
        }
        if configured.contains("/") {
            return FileManager.default.isExecutableFile(atPath: configured) ? .success(configured)
                : .failure(PromptFailure("\(programVariable) names \(configured), which is not an executable file"))
        }
        return onPath(configured, environment).map { .success($0) }
            ?? .failure(PromptFailure("\(programVariable) names \(configured), which is not on the PATH"))
    }

    /// The terminal keychaind was started on (its standard input, output or error), which a
    /// terminal pinentry can prompt on when no terminal is named.
    static func ownTerminal() -> String? {
        for descriptor: Int32 in [0, 1, 2] where isatty(descriptor) == 1 {
            if let name = ttyname(descriptor) { return String(cString: name) }
        }
        return nil
    }

    /// An error line of the pinentry as a reason shows it: printable, and short.
    static func shown(_ line: String) -> String {
        String(line.unicodeScalars.prefix(200).map { $0.properties.generalCategory == .control ? "\u{FFFD}" : Character($0) })
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

    /// The first executable file `name` in the PATH's folders, as a shell finds a command.
    /// Empty and relative entries (the current folder, to a shell) are skipped: a daemon's
    /// current folder is no place to find the program that is given the password.
    static func onPath(_ name: String, _ environment: [String: String]) -> String? {
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") where folder.hasPrefix("/") {
            let candidate = "\(folder)/\(name)"
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isFolder), !isFolder.boolValue,
               FileManager.default.isExecutableFile(atPath: candidate) {
                return candidate
            }
        }
        return nil
    }
}

/// Reads a pinentry's lines, a chunk at a time.
struct LineReader {
    static let longestLine = 64 * 1024
    let pinentry: PinentryProcess
    private var buffer: [UInt8] = []

    init(_ pinentry: PinentryProcess) { self.pinentry = pinentry }

    mutating func next() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                // The line may be the password (`D …`): overwrite it before the array lets go of it.
                for index in buffer.startIndex...newline { buffer[index] = 0 }
                buffer.removeSubrange(...newline)
                return line
            }
            // What has arrived, once it has (FileHandle's reads wait for a full count or trap on
            // errors). End of input, errors, and a pinentry ended by its watch end the conversation.
            var chunk = [UInt8](repeating: 0, count: 4096)
            defer { for index in chunk.indices { chunk[index] = 0 } }
            let count = chunk.withUnsafeMutableBytes { pinentry.readAvailable(into: $0) }
            guard count > 0 else { return nil }
            buffer += chunk[..<count]
            // Assuan lines are at most 1,000 bytes; a program that sends an endless one is cut off.
            if buffer.count > Self.longestLine { return nil }
        }
    }
}
