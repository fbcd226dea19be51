import Foundation
import Testing
import KeychainServices
import KeychainTestSupport
@testable import KeychainKit

@Suite("String and Data values")
struct ValueTests {
    @Test("A string set under a key is returned by get, getString and the subscripts")
    func stringRoundTrip() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            let keychain = Keychain(service: "svc")
            try keychain.set("s3cret ✓", key: "alice")
            #expect(try keychain.get("alice") == "s3cret ✓")
            #expect(try keychain.getString("alice") == "s3cret ✓")
            #expect(try keychain["alice"] == "s3cret ✓")
            #expect(try keychain[string: "alice"] == "s3cret ✓")
            #expect(try keychain[data: "alice"] == Data("s3cret ✓".utf8))
        }
    }

    @Test("Data set under a key is returned byte for byte")
    func dataRoundTrip() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            let keychain = Keychain(service: "svc")
            let bytes = Data((0...255).map { UInt8($0) })
            try keychain.set(bytes, key: "blob")
            #expect(try keychain.getData("blob") == bytes)
        }
    }

    @Test("An empty string is stored and read back as empty, not as missing")
    func emptyValue() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            let keychain = Keychain(service: "svc")
            try keychain.set("", key: "empty")
            #expect(try keychain.get("empty") == "")
            #expect(try keychain.contains("empty"))
        }
    }

    @Test("Getting a key that is not stored returns nil")
    func missingIsNil() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            #expect(try Keychain(service: "svc").get("nobody") == nil)
            #expect(try Keychain(service: "svc").getData("nobody") == nil)
            #expect(try Keychain(service: "svc")[attributes: "nobody"] == nil)
        }
    }

    @Test("set replaces the value of an existing key and keeps one item")
    func setIsUpsert() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            let keychain = Keychain(service: "svc")
            try keychain.set("first", key: "alice")
            let created = try #require(try keychain.attributes("alice")?.creationDate)
            try keychain.set("second", key: "alice")
            #expect(try keychain.get("alice") == "second")
            #expect(try keychain.allKeys() == ["alice"])
            // An update, not a delete and re-add: the creation date survives.
            #expect(try keychain.attributes("alice")?.creationDate == created)
        }
    }

    @Test("set of an existing key changes the label when one is configured")
    func setUpdatesLabel() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            try Keychain(service: "svc").label("old").set("v1", key: "k")
            try Keychain(service: "svc").label("new").set("v2", key: "k")
            #expect(try Keychain(service: "svc").attributes("k")?.label == "new")
            try Keychain(service: "svc").set("v3", key: "k")
            #expect(try Keychain(service: "svc").attributes("k")?.label == "new")
        }
    }

    @Test("Values of different services and keys do not mix")
    func isolation() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            try Keychain(service: "a").set("1", key: "k")
            try Keychain(service: "b").set("2", key: "k")
            try Keychain(service: "a").set("3", key: "other")
            #expect(try Keychain(service: "a").get("k") == "1")
            #expect(try Keychain(service: "b").get("k") == "2")
            #expect(try Keychain(service: "b").get("other") == nil)
        }
    }

    @Test("remove deletes the item")
    func removeDeletes() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            let keychain = Keychain(service: "svc")
            try keychain.set("v", key: "k")
            try keychain.remove("k")
            #expect(try keychain.get("k") == nil)
            #expect(try keychain.contains("k") == false)
        }
    }

    @Test("Removing a key that is not stored succeeds")
    func removeMissingSucceeds() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            try Keychain(service: "svc").remove("nobody")
            try Keychain(service: "svc").remove("nobody")
        }
    }

    @Test("contains is true for a stored key and false otherwise")
    func containsReportsPresence() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            let keychain = Keychain(service: "svc")
            #expect(try keychain.contains("k") == false)
            try keychain.set("v", key: "k")
            #expect(try keychain.contains("k"))
        }
    }

    @Test("A synchronizable keychain and a local one hold separate items; any sees both")
    func synchronizableSeparates() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            let local = Keychain(service: "svc")
            let synced = Keychain(service: "svc").synchronizable(true)
            try local.set("local", key: "k")
            try synced.set("synced", key: "k")
            #expect(try local.get("k") == "local")
            #expect(try synced.get("k") == "synced")
            #expect(try synced.attributes("k")?.synchronizable == true)
            #expect(try Keychain(service: "svc").synchronizable(.any).allItems().count == 2)
            try Keychain(service: "svc").synchronizable(.any).remove("k")
            #expect(try local.get("k") == nil)
            #expect(try synced.get("k") == nil)
        }
    }

    @Test("set with synchronizable any updates an existing synchronized copy instead of adding a local one")
    func setAnyUpdatesExistingCopy() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            try Keychain(service: "svc").synchronizable(true).set("old", key: "k")
            try Keychain(service: "svc").synchronizable(.any).set("new", key: "k")
            let items = try Keychain(service: "svc").synchronizable(.any).allItems(includingValues: true)
            #expect(items.count == 1)
            #expect(items.first?.synchronizable == true)
            #expect(items.first?.value == Data("new".utf8))
        }
    }

    @Test("set with synchronizable any adds a local item when none exists")
    func setAnyAddsLocal() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            try Keychain(service: "svc").synchronizable(.any).set("v", key: "k")
            #expect(try Keychain(service: "svc").get("k") == "v")
        }
    }
}
