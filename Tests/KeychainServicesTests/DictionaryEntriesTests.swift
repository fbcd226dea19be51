// The dictionary reading of this package's own implementation (Apple's framework has none).
#if !(os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
import Foundation
import Testing
@testable import KeychainServices

/// `NSDictionary.entries` and `ResultObjects` read the stored objects themselves (to copy data in
/// one step); every value must come out as Foundation's own enumeration and casts give it, or
/// callers' dictionaries would parse, and results read, differently.
@Suite struct DictionaryEntriesTests {
    private struct PlainValue: Equatable { let number: Int }

    /// Each entry as text naming its Swift type and value, sorted by key.
    private func described(_ entries: [(key: Any, value: Any)]) -> [String] {
        entries.map { "\($0.key)=\(type(of: $0.value)):\($0.value)" }.sorted()
    }

    private func foundationEntries(_ dictionary: NSDictionary) -> [(key: Any, value: Any)] {
        var found: [(key: Any, value: Any)] = []
        dictionary.enumerateKeysAndObjects { key, value, _ in found.append((key, value)) }
        return found
    }

    @Test func everyKindOfValueReadsAsFoundationHandsItOut() throws {
        let key = try #require(SecKeyCreateRandomKey([kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom,
                                                      kSecAttrKeySizeInBits: 256] as CFDictionary, nil))
        let values: [String: Any] = [
            "string": "text", "empty": "", "data": Data([0, 1, 2, 250]), "noData": Data(),
            "long": Data(repeating: 7, count: 5_000), "true": true, "false": false, "int": 42,
            "minusOne": -1, "double": 2.5, "unsigned": UInt64.max, "date": Date(timeIntervalSince1970: 1_000),
            "array": ["a", 1], "dictionary": ["inner": Data([9])], "null": NSNull(), "key": key,
            "access": SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, [], nil) as Any,
            "mutableData": NSMutableData(data: Data([5, 6])), "nsString": NSString(string: "ns"),
        ]
        let dictionary = values as NSDictionary
        // Read from the stored objects, not by Foundation's enumeration (which would pass trivially).
        let ours = try #require(dictionary.storedEntries())
        #expect(ours.count == values.count)
        #expect(described(ours) == described(foundationEntries(dictionary)))
        // The data keep their bytes (text alone would show only a count for the long one).
        let long = try #require(ours.first { $0.key as? String == "long" }?.value as? Data)
        #expect(long == Data(repeating: 7, count: 5_000))
        #expect(type(of: try #require(ours.first { $0.key as? String == "true" }?.value)) == Bool.self)
    }

    @Test func aBoxedSwiftValueOrANonStringKeyStillReadsAsFoundationHandsItOut() {
        let boxed = ["plain": PlainValue(number: 3), "data": Data([1])] as NSDictionary
        #expect(boxed.storedEntries() == nil)
        #expect(described(boxed.entries) == described(foundationEntries(boxed)))
        #expect(boxed.entries.contains { ($0.value as? PlainValue) == PlainValue(number: 3) })

        let numberKey = NSMutableDictionary()
        numberKey[NSNumber(value: 7)] = Data([1, 2])
        numberKey["name"] = "value"
        #expect(numberKey.storedEntries() == nil)
        #expect(described(numberKey.entries) == described(foundationEntries(numberKey)))
    }

    @Test func anEmptyDictionaryHasNoEntries() {
        #expect(NSDictionary().entries.isEmpty)
        #expect(NSMutableDictionary().entries.isEmpty)
    }

    @Test func resultObjectsReadAsTheCastsDo() throws {
        let secret = Data((0..<2_000).map { UInt8($0 % 251) })
        let one: [String: Any] = ["v_Data": secret, "acct": "ivan", "sync": false, "mdat": Date(timeIntervalSince1970: 9)]
        let many: [[String: Any]] = [one, ["v_Data": Data(), "svce": "web"]]
        let bridgedOne: AnyObject = one as NSDictionary, bridgedMany: AnyObject = many as NSArray
        #expect(try #require(bridgedMany as? NSArray).storedObjects()?.count == 2)

        #expect(ResultObjects.data(secret as NSData) == secret)
        #expect(ResultObjects.data(NSData()) == Data())
        #expect(ResultObjects.data(secret) == secret)
        #expect(ResultObjects.data("text" as NSString) == nil)
        #expect(ResultObjects.data(nil) == nil)

        let readOne = try #require(ResultObjects.dictionary(bridgedOne))
        #expect(described(readOne.map { ($0.key, $0.value) }) == described(try #require(bridgedOne as? [String: Any]).map { ($0.key, $0.value) }))
        #expect(readOne["v_Data"] as? Data == secret)
        #expect(ResultObjects.dictionary(bridgedMany) == nil)
        #expect(ResultObjects.dictionary(NSMutableDictionary(dictionary: [NSNumber(value: 1): "x"])) == nil)

        let readMany = try #require(ResultObjects.dictionaries(bridgedMany))
        let castMany = try #require(bridgedMany as? [[String: Any]])
        #expect(readMany.count == castMany.count)
        for (read, cast) in zip(readMany, castMany) {
            #expect(described(read.map { ($0.key, $0.value) }) == described(cast.map { ($0.key, $0.value) }))
        }
        #expect(ResultObjects.dictionaries(bridgedOne) == nil)
        #expect(ResultObjects.dictionaries(["not a dictionary"] as NSArray) == nil)
        #expect(ResultObjects.dictionaries(NSArray())?.isEmpty == true)
    }

    @Test func copiedBytesAreTheBytes() {
        #expect(NSData().copiedBytes == Data())
        let bytes = Data((0..<300).map { UInt8($0 % 256) })
        #expect(NSData(data: bytes).copiedBytes == bytes)
        #expect(NSMutableData(data: bytes).copiedBytes == bytes)
    }
}
#endif
