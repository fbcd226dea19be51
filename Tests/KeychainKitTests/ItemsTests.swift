import Foundation
import Testing
import KeychainStore
import KeychainTestSupport
@testable import KeychainKit

@Suite("Listing and removing all items")
struct ItemsTests {
    @Test("allKeys lists this service's keys in the order they were added")
    func allKeysInOrder() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            let keychain = Keychain(service: "svc")
            #expect(try keychain.allKeys() == [])
            for key in ["c", "a", "b"] { try keychain.set("v", key: key) }
            try Keychain(service: "other").set("v", key: "z")
            #expect(try keychain.allKeys() == ["c", "a", "b"])
        }
    }

    @Test("allItems returns attributes with correct types and no values unless asked")
    func allItemsWithoutValues() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            let keychain = Keychain(service: "svc").label("L")
            try keychain.set(sentinelSecret, key: "alice")
            let items = try keychain.allItems()
            #expect(items.count == 1)
            let item = try #require(items.first)
            #expect(item.key == "alice")
            #expect(item.service == "svc")
            #expect(item.label == "L")
            #expect(item.value == nil)
            #expect(item.accessGroup == "swift-keychain.shared")
            #expect(item.synchronizable == false)
            let created = try #require(item.creationDate)
            let modified = try #require(item.modificationDate)
            #expect(modified >= created)
            #expect(created > Date(timeIntervalSinceReferenceDate: 0))
        }
    }

    @Test("allItems(includingValues:) returns each item's value")
    func allItemsWithValues() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            let keychain = Keychain(service: "svc")
            try keychain.set("one", key: "a")
            try keychain.set("two", key: "b")
            let values = try keychain.allItems(includingValues: true).map { $0.value.map { String(decoding: $0, as: UTF8.self) } }
            #expect(values == ["one", "two"])
        }
    }

    @Test("An item's description and dump never show its value")
    func itemDoesNotPrintValue() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            let keychain = Keychain(service: "svc")
            try keychain.set(sentinelSecret, key: "alice")
            let item = try #require(try keychain.allItems(includingValues: true).first)
            #expect(item.value == Data(sentinelSecret.utf8))
            var dumped = ""
            dump(item, to: &dumped)
            #expect(!item.description.contains(sentinelSecret))
            #expect(!String(reflecting: item).contains(sentinelSecret))
            #expect(!dumped.contains(sentinelSecret))
        }
    }

    @Test("removeAll removes this service's items and no other service's")
    func removeAllIsLimitedToService() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            let keychain = Keychain(service: "svc")
            try keychain.set("1", key: "a")
            try keychain.set("2", key: "b")
            try Keychain(service: "other").set("3", key: "a")
            try keychain.removeAll()
            #expect(try keychain.allKeys() == [])
            #expect(try Keychain(service: "other").get("a") == "3")
        }
    }

    @Test("removeAll of an empty keychain succeeds")
    func removeAllEmpty() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            try Keychain(service: "svc").removeAll()
        }
    }

    @Test("removeAll with an access group leaves the same service in another group alone")
    func removeAllIsLimitedToGroup() throws {
        try withTestKeychain(identity: ClientIdentity(accessGroups: ["group.a", "group.b"])) { (_: TestKeychain) throws in
            let inA = Keychain(service: "svc", accessGroup: "group.a")
            let inB = Keychain(service: "svc", accessGroup: "group.b")
            try inA.set("a", key: "k")
            try inB.set("b", key: "k")
            try inA.removeAll()
            #expect(try inA.get("k") == nil)
            #expect(try inB.get("k") == "b")
        }
    }

    @Test("removeAll of a server keychain leaves other servers alone")
    func removeAllIsLimitedToServer() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            let one = try Keychain(server: "https://one.example.com", protocolType: .https)
            let two = try Keychain(server: "https://two.example.com", protocolType: .https)
            try one.set("1", key: "alice")
            try two.set("2", key: "alice")
            try one.removeAll()
            #expect(try one.allKeys() == [])
            #expect(try two.get("alice") == "2")
        }
    }

    @Test("removeAll of a local keychain leaves synchronized items alone")
    func removeAllIsLimitedToSynchronization() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            try Keychain(service: "svc").set("local", key: "k")
            try Keychain(service: "svc").synchronizable(true).set("synced", key: "k")
            try Keychain(service: "svc").removeAll()
            #expect(try Keychain(service: "svc").synchronizable(true).get("k") == "synced")
        }
    }

    @Test("allKeys with synchronizable any lists a key stored both ways once")
    func allKeysAnyDeduplicates() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            try Keychain(service: "svc").set("local", key: "k")
            try Keychain(service: "svc").synchronizable(true).set("synced", key: "k")
            #expect(try Keychain(service: "svc").synchronizable(.any).allKeys() == ["k"])
        }
    }
}
