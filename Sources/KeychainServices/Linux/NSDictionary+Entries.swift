#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Foundation

extension NSDictionary {
    /// Every key and value, read in one pass.
    ///
    /// A `for (key, value) in dictionary` loop costs more on Linux: Foundation's iterator lists the
    /// keys, then looks each one up again (hashing every `NSString` key a second time). Measured
    /// on a five-key query: 5.6 µs with the loop, 4.0 µs with this; both still convert each value
    /// to its Swift type (an `NSData` to `Data` costs about 2 µs of that).
    var entries: [(key: Any, value: Any)] {
        var found: [(key: Any, value: Any)] = []
        found.reserveCapacity(count)
        enumerateKeysAndObjects { key, value, _ in found.append((key, value)) }
        return found
    }
}
#endif
