import Foundation
import Crypto

/// Keyed hashes of attribute values, so that equality search works on the file while a stolen
/// file does not say which services or accounts the user has (Apple stores unkeyed SHA-1 here).
struct BlindIndex: Sendable {
    private let base: HMAC<SHA256>

    init(key: SymmetricKey) {
        base = HMAC<SHA256>(key: key)
    }

    /// The index of one attribute value: the attribute name is part of the input, so the same
    /// value in two attributes gives unrelated indexes.
    func index(_ name: String, _ value: AttributeValue, kind: AttributeKind) -> Data {
        var mac = base
        mac.update(data: Array(name.utf8))
        mac.update(data: [0])
        mac.update(data: value.matchBytes(for: kind))
        return Data(mac.finalize().prefix(16))
    }

    /// The index of a whole primary key: each part is length-prefixed so no two tuples collide.
    func primaryKey(_ table: String, _ parts: [(name: String, bytes: [UInt8])]) -> Data {
        var mac = base
        mac.update(data: Array("pk:\(table)".utf8))
        for part in parts {
            var length = UInt32(part.bytes.count).littleEndian
            mac.update(data: Array(part.name.utf8))
            mac.update(data: withUnsafeBytes(of: &length) { Array($0) })
            mac.update(data: part.bytes)
        }
        return Data(mac.finalize().prefix(16))
    }
}
