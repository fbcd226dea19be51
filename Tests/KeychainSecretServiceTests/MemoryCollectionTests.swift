import Foundation
import Testing
@testable import KeychainSecretService

@Suite struct MemoryCollectionTests {
    @Test func searchMatchesEveryPairExactlyAndEmptyMatchesAll() throws {
        let collection = MemoryCollection(label: "Session")
        _ = try collection.create(label: "a", attributes: ["service": "S", "username": "U"],
                                  secret: SecretValue(bytes: Data("1".utf8)), replace: false)
        _ = try collection.create(label: "b", attributes: ["service": "S"],
                                  secret: SecretValue(bytes: Data("2".utf8)), replace: false)
        #expect(try collection.search(["service": "S"]).map(\.label) == ["a", "b"])
        #expect(try collection.search(["service": "S", "username": "U"]).map(\.label) == ["a"])
        #expect(try collection.search(["service": "s"]).isEmpty)
        #expect(try collection.search([:]).count == 2)
    }

    @Test func replaceTakesOnlyAnExactAttributeSet() throws {
        let collection = MemoryCollection(label: "Session")
        let first = try collection.create(label: "a", attributes: ["service": "S", "username": "U"],
                                          secret: SecretValue(bytes: Data("1".utf8)), replace: true)
        let subset = try collection.create(label: "b", attributes: ["service": "S"],
                                           secret: SecretValue(bytes: Data("2".utf8)), replace: true)
        #expect(!subset.replaced)
        let same = try collection.create(label: "c", attributes: ["service": "S", "username": "U"],
                                         secret: SecretValue(bytes: Data("3".utf8)), replace: true)
        #expect(same.replaced)
        #expect(same.item.id == first.item.id)
        #expect(try collection.secret(id: first.item.id).bytes == Data("3".utf8))
        #expect(try collection.allItems().count == 2)
    }

    @Test func unknownIDsAreNoSuchItem() {
        let collection = MemoryCollection(label: "Session")
        #expect(throws: SecretCollectionError.noSuchItem) { try collection.secret(id: "i9") }
        #expect(throws: SecretCollectionError.noSuchItem) { try collection.delete(id: "i9") }
    }
}
