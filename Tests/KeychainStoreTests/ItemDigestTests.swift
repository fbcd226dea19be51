import Crypto
import Foundation
@testable import KeychainStore
import Testing

/// The item digest (`sha1`) must not change with how it is computed: stored digests decide
/// which items a backup import merges.
@Suite struct ItemDigestTests {
    @Test("The digest is SHA-1 of the encoding of exactly the hashed attributes, for every class",
          arguments: [ItemClass.genericPassword, .internetPassword, .certificate, .key])
    func digestMatchesDefinition(_ itemClass: ItemClass) {
        let schema = itemClass.schema
        var attributes: [String: AttributeValue] = [:]
        for (offset, attribute) in schema.attributes.enumerated() where offset % 2 == 0 {
            attributes[attribute.name] = attribute.defaultValue
        }
        attributes["acct"] = .string("alice")
        attributes["sha1"] = .data(Data([1, 2, 3]))   // never part of its own digest
        let hashed = attributes.filter { schema.attribute($0.key)?.isHashed ?? false }
        let expected = Data(Insecure.SHA1.hash(data: AttributeCodec.encode(hashed)))
        #expect(itemDigest(attributes, schema: schema) == .data(expected))
        #expect(hashed.count < attributes.count, "the test must include unhashed attributes")
    }
}
