import Foundation
import Testing
import KeychainServices
import KeychainStore
import KeychainTestSupport

/// Creation and modification dates: both set by an add, the modification date moved forward by
/// every update.
@Suite("Rules: creation and modification dates")
struct RulesDatesTests {
    static let longAgo = Date(timeIntervalSinceReferenceDate: 1_000)

    static func dates(_ query: Item) throws -> (created: Date, modified: Date) {
        let stored = try #require(attributes(of: query))
        return (try #require(stored["cdat"] as? Date), try #require(stored["mdat"] as? Date))
    }

    @Test("SecItemAdd sets both dates to the time of the add, overwriting dates the caller gives",
          arguments: PasswordClass.allCases)
    func addOverwritesDates(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            let before = Date()
            #expect(add(passwordClass.withSecret.with([kSecAttrCreationDate: Self.longAgo, kSecAttrModificationDate: Self.longAgo])) == errSecSuccess)
            let (created, modified) = try Self.dates(passwordClass.base)
            #expect(created != Self.longAgo)
            #expect(modified != Self.longAgo)
            #expect(created.timeIntervalSince(before) > -1)
            #expect(created == modified)
        }
    }

    @Test("SecItemUpdate sets the modification date later than before and ignores one the caller gives",
          arguments: PasswordClass.allCases)
    func updateMovesModificationDate(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            let (created, modified) = try Self.dates(passwordClass.base)
            #expect(update(passwordClass.base, item([kSecAttrModificationDate: Self.longAgo, kSecAttrLabel: "x"])) == errSecSuccess)
            let (created2, modified2) = try Self.dates(passwordClass.base)
            #expect(modified2 > modified)
            #expect(created2 == created)
        }
    }

    @Test("Every update moves the modification date forward, even several in a row", arguments: PasswordClass.allCases)
    func modificationDateStrictlyIncreases(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            var last = try Self.dates(passwordClass.base).modified
            for round in 0..<5 {
                #expect(update(passwordClass.base, item([kSecAttrComment: "round \(round)"])) == errSecSuccess)
                let now = try Self.dates(passwordClass.base).modified
                #expect(now > last)
                last = now
            }
        }
    }

    @Test("SecItemUpdate may change the creation date", arguments: PasswordClass.allCases)
    func updateChangesCreationDate(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            #expect(update(passwordClass.base, item([kSecAttrCreationDate: Self.longAgo])) == errSecSuccess)
            let (created, _) = try Self.dates(passwordClass.base)
            #expect(created == Self.longAgo)
            #expect(exists(passwordClass.base.with([kSecAttrCreationDate: Self.longAgo])) == errSecSuccess)
        }
    }

    @Test("An empty attributesToUpdate succeeds and moves the modification date", arguments: PasswordClass.allCases)
    func emptyUpdateTouches(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            let (created, modified) = try Self.dates(passwordClass.base)
            #expect(update(passwordClass.base, [:]) == errSecSuccess)
            let (created2, modified2) = try Self.dates(passwordClass.base)
            #expect(modified2 > modified)
            #expect(created2 == created)
            #expect(secret(of: passwordClass.base) == Data("s3cret".utf8))
        }
    }

    @Test("An update of the secret alone moves the modification date", arguments: PasswordClass.allCases)
    func secretUpdateTouches(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            let before = try Self.dates(passwordClass.base).modified
            #expect(update(passwordClass.base, item([kSecValueData: Data("new".utf8)])) == errSecSuccess)
            let after = try Self.dates(passwordClass.base).modified
            #expect(after > before)
        }
    }

    @Test("The item digest (sha1) changes when an attribute changes", arguments: PasswordClass.allCases)
    func digestChanges(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            let before = try #require(attributes(of: passwordClass.base)?["sha1"] as? Data)
            #expect(update(passwordClass.base, item([kSecAttrLabel: "changed"])) == errSecSuccess)
            let after = try #require(attributes(of: passwordClass.base)?["sha1"] as? Data)
            #expect(before != after)
        }
    }
}
