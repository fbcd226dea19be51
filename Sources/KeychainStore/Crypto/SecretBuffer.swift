import CKeychainSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Room for one secret while it is being read: a fixed block that is kept out of swap (mlock)
/// where the system allows it and overwritten before it is freed.
///
/// Fixed, because a growing array would leave a copy of the first bytes behind at every
/// reallocation; this block never moves. Callers get one exact-size copy with ``bytes()`` and
/// wipe it with ``wipe(_:)`` when they are done. Not copyable, so the block has one owner and
/// is wiped exactly once.
package struct SecretBuffer: ~Copyable {
    /// The most a secret may hold: 16 KiB is more than any password or token, and stays within
    /// the smallest common mlock limit (64 KiB).
    package static let capacity = 16 * 1024

    private let storage: UnsafeMutableRawBufferPointer
    private let locked: Bool
    /// How many bytes it holds.
    package private(set) var count = 0

    package init() {
        storage = .allocate(byteCount: Self.capacity, alignment: Int(getpagesize()))
        storage.initializeMemory(as: UInt8.self, repeating: 0)
        // Best effort: without the privilege or the limit for it, reading still works.
        locked = cks_mlock(storage.baseAddress, Self.capacity) == 0
    }

    deinit {
        cks_secure_zero(storage.baseAddress, Self.capacity)
        if locked { _ = cks_munlock(storage.baseAddress, Self.capacity) }
        storage.deallocate()
    }

    package var isEmpty: Bool { count == 0 }

    /// The last byte, if any.
    package var last: UInt8? { count > 0 ? storage[count - 1] : nil }

    /// Adds `byte` at the end; false, storing nothing, when the buffer is full.
    package mutating func append(_ byte: UInt8) -> Bool {
        guard count < Self.capacity else { return false }
        storage[count] = byte
        count += 1
        return true
    }

    /// Removes and wipes the last byte (nothing when empty).
    package mutating func removeLast() {
        guard count > 0 else { return }
        count -= 1
        storage[count] = 0
    }

    /// Wipes everything it holds.
    package mutating func removeAll() {
        cks_secure_zero(storage.baseAddress, count)
        count = 0
    }

    /// A copy of the bytes it holds, which the caller wipes with ``wipe(_:)``.
    package func bytes() -> [UInt8] {
        Array(UnsafeRawBufferPointer(rebasing: storage[0..<count]))
    }

    /// Overwrites `bytes` in place (when the array's storage is not shared) and empties it.
    package static func wipe(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { wipe($0) }
        bytes.removeAll()
    }

    /// Overwrites `buffer` with zeros, in a way the compiler may not drop as a dead store.
    package static func wipe(_ buffer: UnsafeMutableRawBufferPointer) {
        cks_secure_zero(buffer.baseAddress, buffer.count)
    }
}
