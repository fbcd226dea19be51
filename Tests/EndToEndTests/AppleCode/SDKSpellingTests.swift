import Foundation
import Testing

/// The Swift spellings Apple's SDK gives Security's C types compile against KeychainServices:
/// the struct of a CF_STRING_ENUM with its static members, the enum of a CF_ENUM, the option
/// set of a CF_OPTIONS (no padding being `[]`), the older SecKey calls with the pointer types
/// Swift imports them with, and the CoreFoundation names the CryptoKit-keys sample calls
/// (Tests/Fixtures/SecKeySDKSpellings.swift). The controls show that the type-check refuses
/// what Apple's Swift refuses, so the check is live.
@Suite("SDK spellings: SecKey's imported types type-check as Apple code writes them")
struct SDKSpellingTests {
    static let fixture = ImportPathTests.fixtures.appendingPathComponent("SecKeySDKSpellings.swift")

    @Test("Every spelling of the fixture type-checks under -module-alias Security=KeychainServices")
    func spellingsTypeCheck() throws {
        let outcome = try ImportPathTests.typecheck(Self.fixture, ImportPathTests.aliasFlags)
        #expect(outcome.status == 0, "\(outcome.stderr)")
    }

    /// The fixture plus `line`, type-checked from a private copy.
    static func typecheckWith(_ line: String) throws -> ProofSupport.Outcome {
        let home = try HermeticHome()
        defer { withExtendedLifetime(home) {} }
        let file = home.root.appendingPathComponent("SecKeySDKSpellingsControl.swift")
        let source = try String(contentsOf: fixture, encoding: .utf8)
        try (source + "\n" + line + "\n").write(to: file, atomically: true, encoding: .utf8)
        return try ImportPathTests.typecheck(file, ImportPathTests.aliasFlags)
    }

    @Test("Control: a name the SDK lacks fails the type-check")
    func missingNameFails() throws {
        let outcome = try Self.typecheckWith("let missing = SecKeyKeyExchangeParameter.requestedSizeInBytes")
        #expect(outcome.status != 0)
        #expect(outcome.stderr.contains("requestedSizeInBytes"), "\(outcome.stderr)")
    }

    @Test("Control: the zero option is `[]`, not `.none`, as Swift imports CF_OPTIONS")
    func zeroOptionIsUnavailable() throws {
        let outcome = try Self.typecheckWith("let unpadded: SecPadding = SecPadding.none")
        #expect(outcome.status != 0)
        #expect(outcome.stderr.contains("use [] to construct an empty option set"), "\(outcome.stderr)")
    }
}
