import Foundation
import Testing
import KeychainStore
import KeychainTestSupport
@testable import KeychainKit

/// A locked keychain is never "no item": every getter that returns nil for a missing key throws
/// interactionNotAllowed (-25308) instead while the item's class is locked.
@Suite("Locked keychain")
struct LockedKeychainTests {
    /// A test keychain holding "alice" (when unlocked, the default) and then locked.
    func lockedKeychain(_ body: (Keychain) throws -> Void) throws {
        try withTestKeychain { (test: TestKeychain) throws in
            let keychain = Keychain(service: "svc")
            try keychain.set("s3cret", key: "alice")
            try keychain.set(Account(userId: "alice", password: "p", membership: true), key: "account")
            try test.lockWithPassword()
            try body(keychain)
        }
    }

    @Test("get throws interactionNotAllowed while locked, never nil")
    func getThrows() throws {
        try lockedKeychain { keychain in
            #expect(throws: KeychainError.interactionNotAllowed) { try keychain.get("alice") }
            #expect(throws: KeychainError.interactionNotAllowed) { try keychain.getString("alice") }
            #expect(throws: KeychainError.interactionNotAllowed) { try keychain.getData("alice") }
        }
    }

    @Test("Subscripts throw interactionNotAllowed while locked, never nil")
    func subscriptsThrow() throws {
        try lockedKeychain { keychain in
            #expect(throws: KeychainError.interactionNotAllowed) { try keychain["alice"] }
            #expect(throws: KeychainError.interactionNotAllowed) { try keychain[data: "alice"] }
            #expect(throws: KeychainError.interactionNotAllowed) { try keychain["account", as: Account.self] }
        }
    }

    @Test("Codable get throws interactionNotAllowed while locked")
    func codableGetThrows() throws {
        try lockedKeychain { keychain in
            #expect(throws: KeychainError.interactionNotAllowed) { try keychain.get("account", as: Account.self) }
        }
    }

    @Test("contains throws while locked instead of answering false")
    func containsThrows() throws {
        try lockedKeychain { keychain in
            #expect(throws: KeychainError.interactionNotAllowed) { try keychain.contains("alice") }
        }
    }

    @Test("allKeys, allItems and attributes throw while locked instead of answering empty")
    func listingThrows() throws {
        try lockedKeychain { keychain in
            #expect(throws: KeychainError.interactionNotAllowed) { try keychain.allKeys() }
            #expect(throws: KeychainError.interactionNotAllowed) { try keychain.allItems() }
            #expect(throws: KeychainError.interactionNotAllowed) { try keychain.attributes("alice") }
        }
    }

    @Test("set throws interactionNotAllowed while locked and the old value survives")
    func setThrows() throws {
        try withTestKeychain { (test: TestKeychain) throws in
            let keychain = Keychain(service: "svc")
            try keychain.set("old", key: "alice")
            try test.lockWithPassword("pw")
            #expect(throws: KeychainError.interactionNotAllowed) { try keychain.set("new", key: "alice") }
            #expect(throws: KeychainError.interactionNotAllowed) { try keychain.set("new", key: "bob") }
            try test.file.unlock(password: "pw")
            #expect(try keychain.get("alice") == "old")
            #expect(try keychain.get("bob") == nil)
        }
    }

    @Test("Internet credentials throw while locked instead of reading as signed out")
    func credentialsThrow() throws {
        try withTestKeychain { (test: TestKeychain) throws in
            let site = try Keychain(server: "https://www.example.com", protocolType: .https)
            try site.saveCredentials(Credentials(account: "alice", password: "s3cret"))
            try test.lockWithPassword()
            #expect(throws: KeychainError.interactionNotAllowed) { try site.credentials() }
        }
    }

    @Test("Async get throws interactionNotAllowed while locked")
    func asyncGetThrows() async throws {
        try await withTestKeychain { (test: TestKeychain) async throws in
            let keychain = Keychain(service: "svc")
            try await keychain.set("s3cret", key: "alice")
            try test.lockWithPassword()
            await #expect(throws: KeychainError.interactionNotAllowed) { try await keychain.get("alice") }
        }
    }

    @Test("An afterFirstUnlock item stays readable after the keychain locks again")
    func afterFirstUnlockReadable() throws {
        try withTestKeychain { (test: TestKeychain) throws in
            try test.file.setPassword("pw", currentPassword: nil)
            let keychain = Keychain(service: "svc").accessibility(.afterFirstUnlock)
            try keychain.set("background", key: "token")
            test.file.lock()
            #expect(try keychain.get("token") == "background")
        }
    }
}
