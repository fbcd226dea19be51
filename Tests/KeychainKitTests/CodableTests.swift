import Foundation
import Testing
import KeychainTestSupport
@testable import KeychainKit

@Suite("Codable values")
struct CodableTests {
    @Test("A Codable value is stored as JSON and read back equal")
    func codableRoundTrip() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            let keychain = Keychain(service: "work.tkgstrator")
            let account = Account(userId: "tkgling", password: "s3cret", membership: true)
            try keychain.set(account, key: account.userId)
            #expect(try keychain.get("tkgling", as: Account.self) == account)
            #expect(try keychain["tkgling", as: Account.self] == account)
            let json = try #require(try keychain.getData("tkgling"))
            #expect(try JSONDecoder().decode(Account.self, from: json) == account)
        }
    }

    @Test("The type can be inferred from the context")
    func inferredType() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            let keychain = Keychain(service: "svc")
            try keychain.set([1, 2, 3], key: "numbers")
            let numbers: [Int]? = try keychain.get("numbers")
            #expect(numbers == [1, 2, 3])
        }
    }

    @Test("A missing Codable value is nil")
    func missingCodableIsNil() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            #expect(try Keychain(service: "svc").get("nobody", as: Account.self) == nil)
        }
    }

    @Test("An injected encoder and decoder are used (seed 002's snake_case)")
    func injectedCoders() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            let encoder = JSONEncoder()
            encoder.keyEncodingStrategy = .convertToSnakeCase
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            let keychain = Keychain(service: "svc").encoder(encoder).decoder(decoder)
            let account = Account(userId: "u", password: "p", membership: false)
            try keychain.set(account, key: "u")
            let json = try #require(try keychain.getData("u"))
            #expect(String(decoding: json, as: UTF8.self).contains("user_id"))
            #expect(try keychain.get("u", as: Account.self) == account)
            // The default decoder expects camelCase, so the same bytes do not decode with it.
            #expect(throws: KeychainKitError.self) { try Keychain(service: "svc").get("u", as: Account.self) }
        }
    }

    @Test("A property-list coder can replace JSON")
    func propertyListCoders() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            let keychain = Keychain(service: "svc").encoder(PropertyListEncoder()).decoder(PropertyListDecoder())
            let account = Account(userId: "u", password: "p", membership: true)
            try keychain.set(account, key: "u")
            #expect(try keychain.get("u", as: Account.self) == account)
        }
    }

    @Test("A String stored through the Codable path is plain text, readable by get")
    func stringThroughGenericPath() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            let keychain = Keychain(service: "svc")
            func store<T: Encodable>(_ value: T) throws { try keychain.set(value, key: "k") }
            try store("plain")
            #expect(try keychain.getData("k") == Data("plain".utf8))
            #expect(try keychain.get("k") == "plain")
            #expect(try keychain.get("k", as: String.self) == "plain")
        }
    }

    @Test("Data stored through the Codable path is the raw bytes")
    func dataThroughGenericPath() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            let keychain = Keychain(service: "svc")
            func store<T: Encodable>(_ value: T) throws { try keychain.set(value, key: "k") }
            try store(Data([1, 2, 3]))
            #expect(try keychain.getData("k") == Data([1, 2, 3]))
            #expect(try keychain.get("k", as: Data.self) == Data([1, 2, 3]))
        }
    }

    @Test("Seed 002: one Codable value per account key, listed with allKeys and removed one by one")
    func seed002MultiAccount() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            let keychain = Keychain(service: "work.tkgstrator")
            let accounts = [
                Account(userId: "tkgling", password: "p1", membership: true),
                Account(userId: "tkgstrator", password: "p2", membership: false),
                Account(userId: "guest", password: "p3", membership: false),
            ]
            for account in accounts { try keychain.set(account, key: account.userId) }
            #expect(try keychain.allKeys() == ["tkgling", "tkgstrator", "guest"])
            for account in accounts { #expect(try keychain.get(account.userId, as: Account.self) == account) }

            var changed = accounts[1]
            changed.membership = true
            try keychain.set(changed, key: changed.userId)
            #expect(try keychain.get("tkgstrator", as: Account.self)?.membership == true)

            try keychain.remove("guest")
            #expect(try keychain.allKeys() == ["tkgling", "tkgstrator"])
            let loaded = try keychain.allKeys().compactMap { try keychain.get($0, as: Account.self) }
            #expect(loaded.map(\.userId) == ["tkgling", "tkgstrator"])
        }
    }
}
