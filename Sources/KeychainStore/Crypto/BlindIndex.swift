#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
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
        index(name, matchBytes: value.matchBytes(for: kind))
    }

    /// The same, from the value's ``AttributeValue/matchBytes(for:)`` already computed.
    func index(_ name: String, matchBytes: [UInt8]) -> Data {
        // One buffer, one update: the MAC is the same as over the pieces in turn, for less work.
        var input: [UInt8] = []
        input.reserveCapacity(name.utf8.count + 1 + matchBytes.count)
        input += name.utf8
        input.append(0)
        input += matchBytes
        return mac(input)
    }

    /// The index of a whole primary key: each part is length-prefixed so no two tuples collide.
    func primaryKey(_ table: String, _ parts: [(name: String, bytes: [UInt8])]) -> Data {
        var input = Array("pk:\(table)".utf8)
        input.reserveCapacity(input.count + parts.reduce(0) { $0 + $1.name.utf8.count + 4 + $1.bytes.count })
        for part in parts {
            input += part.name.utf8
            withUnsafeBytes(of: UInt32(part.bytes.count).littleEndian) { input += $0 }
            input += part.bytes
        }
        return mac(input)
    }

    private func mac(_ input: [UInt8]) -> Data {
        var mac = base
        mac.update(data: input)
        return mac.finalize().withUnsafeBytes { Data(bytes: $0.baseAddress!, count: 16) }
    }
}
