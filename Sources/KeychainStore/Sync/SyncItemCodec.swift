#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// The plaintext of a sync record: one item's whole state (class, every attribute, secret),
/// padded so that its length says little about the secret's.
///
/// Layout: version byte 1, the class's four-letter code, the secret's length as a UInt32
/// (`0xFFFF_FFFF` for none) and its bytes, the attributes' length as a UInt32 and their encoding
/// (``AttributeCodec``), then zero bytes up to a multiple of ``padding``. Decoding checks every
/// length, so a damaged plaintext is an error, never a crash.
package enum SyncItemCodec {
    /// Plaintexts are padded to a multiple of this many bytes.
    package static let padding = 64
    private static let noSecret = UInt32.max

    package static func encode(_ item: StoredItem) -> Data {
        var out = Data([1])
        out += Data(item.itemClass.code.utf8)
        if let secret = item.secret {
            append(UInt32(secret.count), to: &out)
            out += secret
        } else {
            append(noSecret, to: &out)
        }
        let attributes = AttributeCodec.encode(item.attributes)
        append(UInt32(attributes.count), to: &out)
        out += attributes
        let remainder = out.count % padding
        if remainder != 0 { out += Data(count: padding - remainder) }
        return out
    }

    /// The item in `plaintext`, with no local identity (an empty persistent reference).
    package static func decode(_ plaintext: Data) throws(KeychainStoreError) -> StoredItem {
        let bytes = [UInt8](plaintext)
        var offset = 0
        func take(_ count: Int) throws(KeychainStoreError) -> ArraySlice<UInt8> {
            guard count >= 0, bytes.count - offset >= count else { throw .decode("a sync record is cut short") }
            defer { offset += count }
            return bytes[offset..<offset + count]
        }
        func uint32() throws(KeychainStoreError) -> UInt32 {
            try take(4).reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        }
        guard try take(1).first == 1 else { throw .decode("unknown sync record version") }
        guard let code = String(bytes: try take(4), encoding: .utf8), let itemClass = ItemClass(code: code) else {
            throw .decode("a sync record names no item class")
        }
        let secretLength = try uint32()
        let secret: Data? = secretLength == noSecret ? nil : Data(try take(Int(secretLength)))
        let attributes = try AttributeCodec.decode(Data(try take(Int(try uint32()))))
        guard bytes[offset...].allSatisfy({ $0 == 0 }) else { throw .decode("a sync record's padding is not zero") }
        return StoredItem(itemClass: itemClass, persistentReference: Data(), attributes: attributes, secret: secret)
    }

    /// The bytes that name an item across devices: its class and primary-key attributes. Two
    /// devices holding the same item produce the same bytes.
    package static func primaryKeyBytes(_ itemClass: ItemClass, _ attributes: [String: AttributeValue]) -> Data {
        Data(itemClass.code.utf8) + AttributeCodec.encode(attributes, sortedNames: itemClass.schema.primaryKey.sorted())
    }

    private static func append(_ value: UInt32, to data: inout Data) {
        withUnsafeBytes(of: value.littleEndian) { data += $0 }
    }
}

extension StoredItem {
    /// An item as it arrives from another device: no local identity yet.
    package init(itemClass: ItemClass, attributes: [String: AttributeValue], secret: Data?) {
        self.init(itemClass: itemClass, persistentReference: Data(), attributes: attributes, secret: secret)
    }
}
