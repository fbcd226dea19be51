import Foundation
import KeychainDaemon
import Testing

/// The prompter on its own, against small pinentry stand-ins written in sh: how it finds the
/// program, and that a prompt that cannot be shown ends with its reason instead of hanging.
@Suite struct PinentryPrompterTests {
    /// An executable `name`, alone in a folder of its own, that greets, accepts every setting,
    /// and does `onGetpin` when asked for the password. The caller removes its folder.
    static func fakePinentry(_ name: String, onGetpin: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pinentry-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let program = folder.appendingPathComponent(name)
        try """
        #!/bin/sh
        echo "OK ready"
        while read -r line; do
          case "$line" in
            GETPIN) \(onGetpin) ;;
            BYE) echo OK; exit 0 ;;
            *) echo OK ;;
          esac
        done
        """.write(to: program, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: program.path)
        return program
    }

    /// The fake's folder first on the PATH, and `configured` (by default the fake's full path)
    /// as the pinentry.
    static func environment(_ program: URL, configured: String? = nil) -> [String: String] {
        ["PATH": "\(program.deletingLastPathComponent().path):/usr/bin:/bin", PinentryPrompter.programVariable: configured ?? program.path]
    }

    /// `SWIFT_KEYCHAIN_PINENTRY=pinentry-tty` names a program as a shell would find it.
    @Test func aBareProgramNameIsFoundOnThePath() throws {
        let program = try Self.fakePinentry("answering-pinentry", onGetpin: "echo 'D typed%25here'; echo OK")
        defer { try? FileManager.default.removeItem(at: program.deletingLastPathComponent()) }
        let prompter = PinentryPrompter(environment: Self.environment(program, configured: "answering-pinentry"))
        let answer = prompter.askPassword(PasswordRequest(description: "test"))
        guard case .password(let password) = answer else {
            Issue.record("no password: \(answer)")
            return
        }
        #expect(password == "typed%here")
        #expect(prompter.unavailableReason == nil)
    }

    /// A name found nowhere is a reason known before any prompt starts, and says which name.
    @Test func aProgramThatIsNowhereIsReportedBeforePrompting() throws {
        let prompter = PinentryPrompter(environment: ["PATH": "/usr/bin:/bin", PinentryPrompter.programVariable: "no-such-pinentry"])
        let reason = try #require(prompter.unavailableReason)
        #expect(reason.contains("no-such-pinentry") && reason.contains("PATH"), "\(reason)")
        guard case .unavailable(let said) = prompter.askPassword(PasswordRequest(description: "test")) else {
            Issue.record("a missing program prompted")
            return
        }
        #expect(said == reason)
    }

    /// A pinentry that is stopped (as a terminal stops a background job that reads it) ends the
    /// prompt with that reason instead of leaving the caller waiting for ever.
    @Test func aStoppedPinentryEndsThePromptWithItsReason() throws {
        let program = try Self.fakePinentry("stopping-pinentry", onGetpin: "kill -STOP $$")
        defer { try? FileManager.default.removeItem(at: program.deletingLastPathComponent()) }
        let answer = PinentryPrompter(environment: Self.environment(program))
            .askPassword(PasswordRequest(description: "test"))
        guard case .unavailable(let reason) = answer else {
            Issue.record("a stopped pinentry gave \(answer)")
            return
        }
        #expect(reason.contains("stopped"), "\(reason)")
    }

    /// A pinentry that never answers is given up after the prompter's bound (shortened here).
    @Test func anUnansweredPromptEndsAfterItsBound() throws {
        let program = try Self.fakePinentry("silent-pinentry", onGetpin: "sleep 600")
        defer { try? FileManager.default.removeItem(at: program.deletingLastPathComponent()) }
        let answer = PinentryPrompter(environment: Self.environment(program), answerTimeout: .milliseconds(500))
            .askPassword(PasswordRequest(description: "test"))
        guard case .unavailable(let reason) = answer else {
            Issue.record("a silent pinentry gave \(answer)")
            return
        }
        #expect(reason.contains("no answer"), "\(reason)")
    }

    /// pinentry runs in a session of its own, so no terminal's job control reaches it.
    @Test func pinentryRunsInASessionOfItsOwn() throws {
        let program = try Self.fakePinentry("session-pinentry", onGetpin: #"echo "D $(cut -d ' ' -f 6 /proc/$$/stat)/$$"; echo OK"#)
        defer { try? FileManager.default.removeItem(at: program.deletingLastPathComponent()) }
        let answer = PinentryPrompter(environment: Self.environment(program))
            .askPassword(PasswordRequest(description: "test"))
        guard case .password(let ids) = answer else {
            Issue.record("no answer: \(answer)")
            return
        }
        let parts = ids.split(separator: "/")
        #expect(parts.count == 2 && parts[0] == parts[1], "session/process: \(ids)")
    }
}
