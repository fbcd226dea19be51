#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Crypto

/// Keyed hashes of attribute values, so that equality search works on the file while a stolen
/// file does not say which services or accounts the user has (Apple stores unkeyed SHA-1 here).
///
/// The MAC is HMAC-SHA256 (RFC 2104), worked out here from two SHA-256 states that have already
/// absorbed the key's inner and outer pads, as `HMAC<SHA256>` keeps them: the same bytes (the
/// tests compare the two), but through SHA-256's concrete calls instead of swift-crypto's generic
/// HMAC code, whose overhead cost more than the hashing of a short input.
struct BlindIndex: Sendable {
    /// SHA-256 after the key XOR ipad block.
    private let inner: SHA256
    /// SHA-256 after the key XOR opad block.
    private let outer: SHA256

    init(key: SymmetricKey) {
        let blockSize = SHA256.blockByteCount
        // The key zero-padded to a block; a key longer than a block is hashed first (RFC 2104,
        // section 2; a class key is 32 bytes). Written into one buffer of its final size, so no
        // copy of the key is left in a buffer given up along the way.
        var block = [UInt8](repeating: 0, count: blockSize)
        key.withUnsafeBytes { keyBytes in
            block.withUnsafeMutableBytes { destination in
                if keyBytes.count > blockSize {
                    SHA256.hash(data: keyBytes).withUnsafeBytes { destination.copyMemory(from: $0) }
                } else {
                    destination.copyMemory(from: keyBytes)
                }
            }
        }
        var pad = block.map { $0 ^ 0x36 }
        var inner = SHA256()
        pad.withUnsafeBytes { inner.update(bufferPointer: $0) }
        for i in 0..<blockSize { pad[i] = block[i] ^ 0x5c }
        var outer = SHA256()
        pad.withUnsafeBytes { outer.update(bufferPointer: $0) }
        // Nor in these two, once the states have them.
        for i in 0..<blockSize { block[i] = 0; pad[i] = 0 }
        self.inner = inner
        self.outer = outer
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
        // "pk:<table>", then per part its name, its length (UInt32, little-endian) and its bytes;
        // sized once and appended piece by piece (an interpolated string, a closure summing the
        // sizes and appends through withUnsafeBytes cost as much as the MAC).
        var capacity = 3 + table.utf8.count
        for part in parts { capacity += part.name.utf8.count + 4 + part.bytes.count }
        var input: [UInt8] = []
        input.reserveCapacity(capacity)
        input += Self.primaryKeyPrefix
        input += table.utf8
        for part in parts {
            input += part.name.utf8
            let length = UInt32(part.bytes.count)
            input.append(UInt8(truncatingIfNeeded: length))
            input.append(UInt8(truncatingIfNeeded: length >> 8))
            input.append(UInt8(truncatingIfNeeded: length >> 16))
            input.append(UInt8(truncatingIfNeeded: length >> 24))
            input += part.bytes
        }
        return mac(input)
    }

    private static let primaryKeyPrefix = Array("pk:".utf8)

    /// The first 16 bytes of HMAC-SHA256(key, input).
    private func mac(_ input: [UInt8]) -> Data {
        var innerHash = inner
        input.withUnsafeBytes { innerHash.update(bufferPointer: $0) }
        var outerHash = outer
        innerHash.finalize().withUnsafeBytes { outerHash.update(bufferPointer: $0) }
        return outerHash.finalize().withUnsafeBytes { Data(bytes: $0.baseAddress!, count: 16) }
    }
}
