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
        // One buffer, one update: the MAC is the same as over the pieces in turn, for less work.
        var input = Array(name.utf8)
        input.append(0)
        input += value.matchBytes(for: kind)
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

    /// The 8-byte mask that hides a row number inside a persistent reference
    /// (``KeychainFile/State/reference(rowid:nonce:)``): keyed, so only this keychain can read
    /// the row number back, and different for every nonce.
    func referenceMask(_ nonce: some Sequence<UInt8>) -> UInt64 {
        var mac = base
        mac.update(data: Array("persistref\0".utf8) + Array(nonce))
        return mac.finalize().withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
    }

    private func mac(_ input: [UInt8]) -> Data {
        var mac = base
        mac.update(data: input)
        return mac.finalize().withUnsafeBytes { Data($0.prefix(16)) }
    }
}
