#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import CoreFoundation
#endif
import Foundation

/// What `SecItemCopyMatching` hands back, read by this package's own callers (KeychainKit,
/// keychainctl, the credential helpers) as Swift values.
///
/// On Apple platforms these are the usual bridging casts. On Linux, Foundation's casts copy data a
/// byte at a time (`Data(NSData)` walks the object as a sequence;
/// Benchmarks/notes/2026-11-28-data-across-foundation.md), also for data inside a dictionary or
/// an array; these read the objects themselves and copy data in one step, with the same results
/// as the casts.
package enum ResultObjects {
    /// `object` as `Data`, or nil when it is not data (as `object as? Data`).
    package static func data(_ object: Any?) -> Data? {
        #if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
        // A Swift `Data` first, by its exact type: cast to `NSData`, it would be bridged (copied).
        if let object, type(of: object) == Data.self { return object as? Data }
        if let data = object as? NSData { return data.copiedBytes }
        #endif
        return object as? Data
    }

    /// `object` as a dictionary keyed by strings, or nil (as `object as? [String: Any]`).
    package static func dictionary(_ object: Any?) -> [String: Any]? {
        #if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
        if let dictionary = object as? NSDictionary { return stringKeyed(dictionary) }
        #endif
        return object as? [String: Any]
    }

    /// `object` as an array of dictionaries keyed by strings, or nil (as `object as? [[String: Any]]`).
    package static func dictionaries(_ object: Any?) -> [[String: Any]]? {
        #if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
        if let array = object as? NSArray, let read = stringKeyedDictionaries(array) { return read }
        #endif
        return object as? [[String: Any]]
    }

    #if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
    /// nil when an element is not a dictionary keyed by strings (the cast then decides).
    private static func stringKeyedDictionaries(_ array: NSArray) -> [[String: Any]]? {
        guard let objects = array.storedObjects() else { return nil }
        var result: [[String: Any]] = []
        result.reserveCapacity(objects.count)
        for element in objects {
            guard let dictionary = element as? NSDictionary, let read = stringKeyed(dictionary) else { return nil }
            result.append(read)
        }
        return result
    }

    private static func stringKeyed(_ dictionary: NSDictionary) -> [String: Any]? {
        var result: [String: Any] = [:]
        result.reserveCapacity(dictionary.count)
        for (key, value) in dictionary.entries {
            guard let key = key as? String else { return nil }
            result[key] = value
        }
        return result
    }
    #endif
}

#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
extension NSArray {
    /// The objects as stored (not bridged to Swift values), or nil for a subclass, whose contents
    /// Foundation keeps elsewhere.
    func storedObjects() -> [AnyObject]? {
        guard type(of: self) === NSArray.self || type(of: self) === NSMutableArray.self else { return nil }
        let count = self.count
        guard count > 0 else { return [] }
        return withUnsafeTemporaryAllocation(of: UnsafeRawPointer?.self, capacity: count) { buffer in
            CFArrayGetValues(unsafeBitCast(self, to: CoreFoundation.CFArray.self), CFRange(location: 0, length: count),
                             buffer.baseAddress!)
            var objects: [AnyObject] = []
            objects.reserveCapacity(count)
            for index in 0..<count {
                guard let pointer = buffer[index] else { return nil }
                objects.append(Unmanaged<AnyObject>.fromOpaque(pointer).takeUnretainedValue())
            }
            return objects
        }
    }
}
#endif
