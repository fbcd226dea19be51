import Foundation
@testable import KeychainStore
import Testing

/// The metadata encoding: every value kind round-trips, a subset by names encodes exactly as
/// those attributes alone, and text that is not UTF-8 is refused.
@Suite struct AttributeCodecTests {
    static let sample: [String: AttributeValue] = [
        "acct": .string("ascii"), "svce": .string("ünïcödé ✓"), "gena": .data(Data([0, 0xff, 0x80])),
        "type": .integer(-7), "crtr": .real(2.5), "cdat": .date(1_000.25), "labl": .string(""),
    ]

    @Test("Every kind of value decodes to what was encoded, ASCII and other text alike")
    func roundTrip() throws {
        #expect(try AttributeCodec.decode(AttributeCodec.encode(Self.sample)) == Self.sample)
    }

    @Test("Encoding the attributes named in a sorted list equals encoding just those attributes")
    func subsetByNames() throws {
        let names = ["aaaa", "acct", "cdat", "desc", "labl", "type", "zzzz"]
        let subset = Self.sample.filter { names.contains($0.key) }
        #expect(AttributeCodec.encode(Self.sample, sortedNames: names) == AttributeCodec.encode(subset))
        #expect(AttributeCodec.encode(Self.sample, sortedNames: []) == AttributeCodec.encode([:]))
        #expect(AttributeCodec.encode(Self.sample, sortedNames: Self.sample.keys.sorted()) == AttributeCodec.encode(Self.sample))
    }

    @Test("A name or a string value that is not UTF-8 is errSecDecode")
    func invalidUTF8() throws {
        let encoded = [UInt8](AttributeCodec.encode(["acct": .string("é")]))
        // Layout: version, count (2), name length, "acct", tag, length (4), then the two bytes of é.
        var badValue = encoded
        badValue[badValue.count - 1] = 0x41          // a lead byte followed by ASCII
        var badName = encoded
        badName[4] = 0xC3                            // a lead byte inside the name
        for bytes in [badValue, badName] {
            #expect(throws: KeychainStoreError.self) { try AttributeCodec.decode(Data(bytes)) }
            do { _ = try AttributeCodec.decode(Data(bytes)) } catch { #expect(error.status == SecStatus.decode) }
        }
    }
}
