import Foundation
import KeychainTestSupport
import Testing

/// Seed 001's code (Examples/SeedAccessControl), built unchanged but for its import line, run as a
/// program against a private keychain with a password. The article's item needs
/// biometry (biometryCurrentSet) and a passcode (akpu); on Linux the passcode is the keychain
/// password and biometry exists only when simulated.
@Suite("Seed 001 (an item only the device owner can read) as a program")
struct SeedAccessControlTests {
    static let password = "0wner-Passw0rd"
    static let prompt = "Please, pass authorisation to enter this area"
    static let simulated = ["SWIFT_KEYCHAIN_SIMULATED_BIOMETRY": "1"]

    func run(_ sandbox: ProbeSandbox, _ command: String, _ extra: [String: String]) throws -> String {
        let environment = sandbox.environment.merging(extra) { $1 }.merging(["SWIFT_KEYCHAIN_AUTHENTICATOR": "none"]) { $1 }
        let outcome = try ProofSupport.run(try ProofSupport.product("seed-access-control"), [command], environment: environment)
        let printed = outcome.lines.joined(separator: "\n")
        // A step that failed exits 1, so that a script notices without reading the output.
        let succeeded = printed.contains("status=0")
        #expect(outcome.status == (succeeded ? 0 : 1), "exit \(outcome.status) for \(printed); stderr: \(outcome.stderr)")
        return printed
    }

    @Test("On a machine without biometry the article's item cannot be stored: errSecAuthFailed")
    func noBiometry() throws {
        let sandbox = try ProbeSandbox(password: Self.password)
        #expect(try run(sandbox, "save", [:]) == "save: status=-25293")
    }

    @Test("With simulated biometry the item is stored without a prompt")
    func stored() throws {
        let sandbox = try ProbeSandbox(password: Self.password)
        // The authenticator is "none": any prompt would have failed the add.
        #expect(try run(sandbox, "save", Self.simulated) == "save: status=0")
        #expect(try run(sandbox, "save", Self.simulated) == "save: status=-25299")
    }

    @Test("The article's read asks for account \"My Name\", which it never saved: errSecItemNotFound, no prompt")
    func readOtherAccount() throws {
        let sandbox = try ProbeSandbox(password: Self.password)
        _ = try run(sandbox, "save", Self.simulated)
        #expect(try run(sandbox, "read", Self.simulated) == "read: status=-25300 data=none")
    }

    @Test("Without a way to ask, reading the protected item is errSecInteractionNotAllowed")
    func readWithoutTerminal() throws {
        let sandbox = try ProbeSandbox(password: Self.password)
        #expect(try run(sandbox, "save-as-read-account", Self.simulated) == "save-as-read-account: status=0")
        #expect(try run(sandbox, "read", Self.simulated) == "read: status=-25308 data=none")
    }

    @Test(.enabled(if: TmuxTerminal.isAvailable, "tmux is not installed"), arguments: [true, false])
    func readAtTheTerminal(rightPassword: Bool) throws {
        let sandbox = try ProbeSandbox(password: Self.password)
        #expect(try run(sandbox, "save-as-read-account", Self.simulated) == "save-as-read-account: status=0")
        let terminal = try ProbeTerminal.start(sandbox: sandbox, product: "seed-access-control", arguments: ["read"],
                                         extraEnvironment: Self.simulated.merging(["SWIFT_KEYCHAIN_AUTHENTICATOR": "terminal"]) { $1 })
        defer { terminal.close() }
        let screen = try terminal.waitFor("Password:")
        #expect(screen.contains(Self.prompt), "the prompt shows kSecUseOperationPrompt")
        for attempt in 1...(rightPassword ? 1 : 3) {
            try terminal.waitFor("Password:", occurrences: attempt)
            terminal.type(rightPassword ? Self.password : "not-it-\(attempt)")
        }
        let result = try terminal.waitFor(rightPassword ? "EXIT=0" : "EXIT=1")
        #expect(result.contains(rightPassword ? "read: status=0 data=matches" : "read: status=-25293 data=none"))
        #expect(!result.contains(Self.password))
    }
}
