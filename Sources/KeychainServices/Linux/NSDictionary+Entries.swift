#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import CoreFoundation
import Foundation

extension NSDictionary {
    /// Every key and value, read in one pass, each as Foundation's own bridging gives it (a
    /// string as `String`, data as `Data`, a boolean as `Bool`, a number as `NSNumber`).
    ///
    /// A `for (key, value) in dictionary` loop costs more on Linux: Foundation's iterator lists the
    /// keys, then looks each one up again (hashing every `NSString` key a second time). Foundation's
    /// own one-pass enumeration is cheaper, but it turns every `NSData` into `Data` one byte at a
    /// time (through `NSData`'s `Sequence` conformance;
    /// Benchmarks/notes/2026-11-28-data-across-foundation.md). So the objects are read as stored
    /// and converted here, data in one copy and everything else by the bridging call Foundation
    /// itself makes; a dictionary holding anything else (a boxed Swift value, a key that is not a
    /// string), or not Foundation's own class, goes through Foundation's enumeration unchanged.
    var entries: DictionaryEntries {
        if let read = storedEntries() { return read }
        var found: DictionaryEntries = []
        found.reserveCapacity(count)
        enumerateKeysAndObjects { key, value, _ in found.append((key, value)) }
        return found
    }

    /// The entries read from the stored objects, or nil when this reading does not apply.
    func storedEntries() -> DictionaryEntries? {
        // Subclasses keep their contents elsewhere; Core Foundation would copy them into this
        // object's storage to answer.
        guard type(of: self) === NSDictionary.self || type(of: self) === NSMutableDictionary.self else { return nil }
        let count = self.count
        guard count > 0 else { return [] }
        return withUnsafeTemporaryAllocation(of: UnsafeRawPointer?.self, capacity: 2 * count) { buffer in
            let keys = buffer.baseAddress!, values = keys + count
            // Safe to read unretained: the objects belong to this dictionary, alive for the call.
            CFDictionaryGetKeysAndValues(unsafeBitCast(self, to: CoreFoundation.CFDictionary.self), keys, values)
            var found: DictionaryEntries = []
            found.reserveCapacity(count)
            for index in 0..<count {
                guard let key = keys[index], let value = values[index],
                      case let keyObject = Unmanaged<AnyObject>.fromOpaque(key).takeUnretainedValue(), keyObject is NSString,
                      let bridgedKey = Self.bridged(keyObject),
                      let bridgedValue = Self.bridged(Unmanaged<AnyObject>.fromOpaque(value).takeUnretainedValue()) else { return nil }
                found.append((bridgedKey, bridgedValue))
            }
            return found
        }
    }

    /// `object` as Foundation's enumeration hands it out (its rules, in its order: the two
    /// boolean singletons, then anything with a Swift value type, then the object itself; data and
    /// strings, which no earlier rule matches, are taken first), or nil for what only Foundation
    /// can unwrap (its box for Swift values that are not objects) and for objects this reading
    /// does not know.
    private static func bridged(_ object: AnyObject) -> Any? {
        if let data = object as? NSData { return data.copiedBytes }
        // Strings, most keys and values, by a class check: the protocol cast below costs more
        // (Benchmarks/notes/2026-12-02-figures-from-source-comments.md).
        if let string = object as? NSString { return string._bridgeToAny() }
        if object === CoreFoundation.kCFBooleanTrue { return true }
        if object === CoreFoundation.kCFBooleanFalse { return false }
        if let bridgeable = object as? any _StructBridgeable { return bridgeable._bridgeToAny() }
        // Objects Foundation hands out as they are: numbers, null, and this module's own.
        if object is NSNumber || object is NSNull || object is SecKey || object is SecCertificate
            || object is SecIdentity || object is SecAccessControl || object is SecPolicy { return object }
        return nil
    }
}

/// A dictionary's entries as ``NSDictionary/entries`` reads them: a SecItem call reads its
/// dictionaries once and hands the entries to each of its checks.
typealias DictionaryEntries = [(key: Any, value: Any)]

extension Array where Element == (key: Any, value: Any) {
    /// The value under the string key `name`, as `NSDictionary.object(forKey:)` would find it.
    func value(forKey name: String) -> Any? {
        first { $0.key as? String == name }?.value
    }

    /// Whether a key is one of `names`.
    func containsKey(in names: Set<String>) -> Bool {
        contains { ($0.key as? String).map(names.contains) ?? false }
    }
}

extension NSData {
    /// The bytes as `Data`, in one copy. `Data(referencing:)` and `as Data` on this platform read
    /// an `NSData` a byte at a time (Benchmarks/notes/2026-11-28-data-across-foundation.md).
    package var copiedBytes: Data {
        length == 0 ? Data() : Data(bytes: bytes, count: length)
    }
}
#endif
