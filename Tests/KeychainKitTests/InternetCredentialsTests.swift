import Foundation
import Testing
import KeychainServices
import KeychainTestSupport
@testable import KeychainKit

/// Seed 004's flow: save on sign-in, read with attributes on later launches, update when the
/// password changed elsewhere, delete on sign-out.
@Suite("Internet credentials")
struct InternetCredentialsTests {
    func site() throws -> Keychain {
        try Keychain(server: "https://www.example.com", protocolType: .https)
    }

    @Test("Saved credentials are read back with their account, password and attributes")
    func saveAndRead() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            try site().saveCredentials(Credentials(account: "alice", password: "s3cret"))
            let credentials = try #require(try site().credentials())
            #expect(credentials == Credentials(account: "alice", password: "s3cret"))
            let attributes = try #require(credentials.attributes)
            #expect(attributes.server == "www.example.com")
            #expect(attributes.protocolType == .https)
            #expect(attributes.creationDate != nil)
            #expect(attributes.value == nil)
        }
    }

    @Test("No stored credentials read as nil")
    func noneStored() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            #expect(try site().credentials() == nil)
            #expect(try site().credentials(account: "alice") == nil)
        }
    }

    @Test("Credentials are stored as an internet password Apple-style code can find")
    func storedAsInternetPassword() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            try site().saveCredentials(Credentials(account: "alice", password: "s3cret"))
            var result: CFTypeRef?
            let query: [String: Any] = [kSecClass as String: kSecClassInternetPassword, kSecAttrServer as String: "www.example.com",
                                        kSecReturnAttributes as String: true, kSecReturnData as String: true]
            #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
            let item = try #require(result as? [String: Any])
            #expect(item[kSecAttrAccount as String] as? String == "alice")
            #expect(item[kSecValueData as String] as? Data == Data("s3cret".utf8))
        }
    }

    @Test("updateCredentials replaces a password changed elsewhere")
    func updateChangedPassword() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            try site().saveCredentials(Credentials(account: "alice", password: "old"))
            try site().updateCredentials(Credentials(account: "alice", password: "new"))
            #expect(try site().credentials()?.password == "new")
            #expect(try site().allKeys() == ["alice"])
        }
    }

    @Test("updateCredentials can rename the account")
    func updateRenamesAccount() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            try site().saveCredentials(Credentials(account: "alice", password: "old"))
            try site().updateCredentials(Credentials(account: "alice@example.com", password: "new"), replacingAccount: "alice")
            #expect(try site().credentials() == Credentials(account: "alice@example.com", password: "new"))
            #expect(try site().allKeys() == ["alice@example.com"])
        }
    }

    @Test("updateCredentials of credentials never stored throws itemNotFound")
    func updateMissingThrows() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            #expect(throws: KeychainError.itemNotFound) {
                try site().updateCredentials(Credentials(account: "alice", password: "new"))
            }
        }
    }

    @Test("deleteCredentials removes them at sign-out, and succeeds when there are none")
    func deleteOnSignOut() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            try site().saveCredentials(Credentials(account: "alice", password: "s3cret"))
            try site().deleteCredentials()
            #expect(try site().credentials() == nil)
            try site().deleteCredentials()
            try site().deleteCredentials(account: "bob")
        }
    }

    @Test("Several accounts on one server are kept and read by account")
    func severalAccounts() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            try site().saveCredentials(Credentials(account: "alice", password: "a"))
            try site().saveCredentials(Credentials(account: "bob", password: "b"))
            #expect(try site().credentials(account: "bob")?.password == "b")
            try site().deleteCredentials(account: "alice")
            #expect(try site().allKeys() == ["bob"])
        }
    }

    @Test("Credentials never print their password")
    func credentialsDoNotPrintPassword() {
        let credentials = Credentials(account: "alice", password: sentinelSecret)
        var dumped = ""
        dump(credentials, to: &dumped)
        #expect(!credentials.description.contains(sentinelSecret))
        #expect(!String(reflecting: credentials).contains(sentinelSecret))
        #expect(!dumped.contains(sentinelSecret))
    }
}
