import Foundation
import Testing

/// A process whose environment turns simulated biometry on says so on standard error, once,
/// however many keychain calls it makes; a process without the switch says nothing.
@Suite("Simulated biometry announces itself")
struct SimulatedBiometryNoticeTests {
    static let password = "0wner-Passw0rd"

    func run(_ sandbox: ProbeSandbox, _ command: String, _ extra: [String: String]) throws -> ProofSupport.Outcome {
        let environment = sandbox.environment.merging(extra) { $1 }.merging(["SWIFT_KEYCHAIN_AUTHENTICATOR": "none"]) { $1 }
        return try ProofSupport.run(try ProofSupport.product("seed-access-control"), [command], environment: environment)
    }

    @Test("SWIFT_KEYCHAIN_SIMULATED_BIOMETRY=1 prints one warning line on standard error; without it, none")
    func oneWarningLine() throws {
        let sandbox = try ProbeSandbox(password: Self.password)
        let simulated = try run(sandbox, "save", ["SWIFT_KEYCHAIN_SIMULATED_BIOMETRY": "1"])
        #expect(simulated.stdout.contains("save: status=0"), "\(simulated.stdout) \(simulated.stderr)")
        let warnings = simulated.stderr.split(separator: "\n").filter { $0.contains("simulated biometry is on") }
        #expect(warnings.count == 1, "\(simulated.stderr)")
        #expect(!simulated.stderr.contains(Self.password))

        let plain = try run(sandbox, "save", [:])
        #expect(!plain.stderr.contains("simulated biometry"), "\(plain.stderr)")
    }
}
