#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Foundation
import KeychainStore

/// The `CFData` objects the API hands out on this platform: an immutable `NSData` that keeps its
/// bytes in a buffer of its own.
///
/// Callers read a result the way Apple's documentation shows, `result as? Data`, and
/// swift-corelibs-foundation answers that cast through `NSData`'s collection conformance, which
/// calls `enumerateBytes` once for every byte; for Foundation's own `NSData` each of those calls
/// goes through Core Foundation. This class answers `enumerateBytes`, `bytes` and `length` from
/// its buffer, which makes the same cast several times cheaper
/// (Benchmarks/notes/2026-11-28-results-read-back-as-data.md). Everything else `NSData` does is
/// built on those three, so it compares, hashes, copies and describes itself as an `NSData` with
/// the same bytes; it archives as an `NSData`, so a keyed unarchiver asked for `NSData` reads it
/// back. Its own buffer is wiped when the object is released; the copies a caller makes (its
/// `Data`, a bridged dictionary) are the caller's, as with any `NSData`.
final class ResultData: NSData {
    private let buffer: UnsafeMutableRawBufferPointer
    private let byteCount: Int

    init(copying data: Data) {
        // One byte at least, so that `bytes` always has an address to give.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Swift.max(data.count, 1), alignment: 1)
        data.withUnsafeBytes { source in
            if let base = source.baseAddress { buffer.baseAddress!.copyMemory(from: base, byteCount: source.count) }
        }
        self.buffer = buffer
        byteCount = data.count
        super.init()
    }

    /// Never unarchived as itself: it archives as `NSData` (``classForCoder``).
    required init?(coder: NSCoder) { nil }

    deinit {
        SecretBuffer.wipe(buffer)
        buffer.deallocate()
    }

    override var length: Int { byteCount }
    override var bytes: UnsafeRawPointer { UnsafeRawPointer(buffer.baseAddress!) }

    override func enumerateBytes(_ block: (UnsafeRawPointer, NSRange, UnsafeMutablePointer<Bool>) -> Void) {
        var stop = false
        block(UnsafeRawPointer(buffer.baseAddress!), NSRange(location: 0, length: byteCount), &stop)
    }

    /// What archivers record (keyed archivers too, by default): `NSData`.
    override var classForCoder: AnyClass { NSData.self }
}

extension Data {
    /// These bytes as the `CFData` the API returns (a ``ResultData``).
    var resultObject: NSData { ResultData(copying: self) }
}
#endif
