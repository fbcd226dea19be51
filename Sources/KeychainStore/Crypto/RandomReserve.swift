#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Random bytes for the item keys, nonces and row references of one write transaction, drawn
/// from the system a chunk at a time instead of once per use.
///
/// An add names a new row (8 bytes) and seals two parts (an item key and two nonces each, 56
/// bytes); an update seals one or two parts. Drawn one by one that was three system calls per
/// add and two per update; from a reserve it is one for a write of one row (a chunk covers an
/// add), and one per chunk for more. Every byte is handed out once, and a reserve lives only as
/// long as its transaction (``KeychainFile/State/itemTransaction(_:)``): no byte is kept for a
/// later write, where a forked child holding a copy could use it again. The draws go through
/// ``secureRandomBytes(_:)``, so an injected random-generator fault still fails the write that
/// needed the bytes.
final class RandomReserve {
    /// One add's needs: a reference's 8 bytes and two fresh seals of 56.
    static let chunk = 8 + 2 * 56

    private var bytes: [UInt8] = []
    private var used = 0

    /// Some of the bytes become item keys: the reserve's copies are wiped when it is done with
    /// them (the drawn buffer at once, the chunk when the next one is drawn or the reserve is
    /// released), as the keys' own storage is when released.
    deinit { SecretBuffer.wipe(&bytes) }

    /// `count` random bytes: from `reserve` when the caller has one for its write, else from a
    /// draw of their own.
    static func bytes(_ count: Int, from reserve: RandomReserve?) throws(KeychainStoreError) -> [UInt8] {
        if let reserve { return try reserve.take(count) }
        return [UInt8](try secureRandomBytes(count))
    }

    /// The next `count` bytes, not handed out before; a new chunk is drawn when the reserve has
    /// fewer left.
    func take(_ count: Int) throws(KeychainStoreError) -> [UInt8] {
        if bytes.count - used < count {
            SecretBuffer.wipe(&bytes)
            var drawn = try secureRandomBytes(max(count, Self.chunk))
            bytes = [UInt8](drawn)
            drawn.withUnsafeMutableBytes { SecretBuffer.wipe($0) }
            used = 0
        }
        defer { used += count }
        return Array(bytes[used..<used + count])
    }
}
