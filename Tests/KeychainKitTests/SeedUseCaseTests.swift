import Foundation
import Testing
import KeychainTestSupport
@testable import KeychainKit

/// The use cases of the seed articles, as the DocC articles show them.
@Suite("Seed use cases")
struct SeedUseCaseTests {
    @Test("Seed 000: save-or-update, retrieve, update, idempotent delete, then nil")
    func seed000KeychainManagerFlow() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            let keychain = Keychain(service: "com.yourcompany.yourapp").accessibility(.whenUnlocked)
            let userAccount = "user@example.com"
            try keychain.set("initialPassword123", key: userAccount)
            #expect(try keychain.get(userAccount) == "initialPassword123")
            try keychain.set("newSecurePassword456", key: userAccount)
            #expect(try keychain.get(userAccount) == "newSecurePassword456")
            try keychain.remove(userAccount)
            try keychain.remove(userAccount)
            #expect(try keychain.get(userAccount) == nil)
        }
    }

    @Test("Seed 000: adding over an existing item is never errSecDuplicateItem through set")
    func seed000NoDuplicateError() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            let keychain = Keychain(service: "com.yourcompany.yourapp")
            for round in 0..<3 { try keychain.set("password \(round)", key: "user@example.com") }
            #expect(try keychain.allItems().count == 1)
        }
    }

    @Test("Seed 000: items the wrapper writes are read by the article's raw SecItem code, and back")
    func seed000InteropWithRawCalls() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            let keychain = Keychain(service: "com.yourcompany.yourapp")
            try keychain.set("from the wrapper", key: "user@example.com")
            #expect(try readLikeTheArticle(service: "com.yourcompany.yourapp", account: "user@example.com") == "from the wrapper")
            try writeLikeTheArticle(service: "com.yourcompany.yourapp", account: "other@example.com", password: "from raw code")
            #expect(try keychain.get("other@example.com") == "from raw code")
        }
    }

    /// The way the Getting Started article's code goes for a stored token.
    enum TokenPath: Equatable { case resume, signIn, retryAfterUnlock }

    /// The article's decision, as a function of the keychain. (Written as a function local to
    /// the test's closure, its `catch` was reported unreachable when the module was emitted.)
    static func decide(_ keychain: Keychain) throws -> TokenPath {
        let token: String?
        do {
            token = try keychain.get("api-token")
        } catch KeychainError.interactionNotAllowed {
            return .retryAfterUnlock
        }
        return token == nil ? .signIn : .resume
    }

    @Test("Getting started: locked and missing take different paths")
    func gettingStartedLockedOrMissing() throws {
        try withTestKeychain { (test: TestKeychain) throws in
            let keychain = Keychain(service: "com.example.notes")
            #expect(try Self.decide(keychain) == .signIn)
            try keychain.set("token", key: "api-token")
            #expect(try Self.decide(keychain) == .resume)
            try test.lockWithPassword()
            #expect(try Self.decide(keychain) == .retryAfterUnlock)
        }
    }
}
