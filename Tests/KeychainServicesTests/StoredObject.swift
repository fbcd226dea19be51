// Core Foundation's own names, apart from KeychainServices' (the two modules name the same
// functions and constants, so no file can import both).
#if !(os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
import CoreFoundation
import Foundation

/// The object `dictionary` holds under `key`, as stored: its subscript hands data out bridged
/// to `Data`, which hides the class the dictionary was given.
func storedObject(_ dictionary: NSDictionary, _ key: String) -> AnyObject? {
    let count = dictionary.count
    var keys = [UnsafeRawPointer?](repeating: nil, count: count), values = [UnsafeRawPointer?](repeating: nil, count: count)
    CFDictionaryGetKeysAndValues(unsafeBitCast(dictionary, to: CFDictionary.self), &keys, &values)
    for (storedKey, value) in zip(keys, values) {
        guard let storedKey, let value,
              let name = Unmanaged<AnyObject>.fromOpaque(storedKey).takeUnretainedValue() as? NSString, name as String == key else { continue }
        return Unmanaged<AnyObject>.fromOpaque(value).takeUnretainedValue()
    }
    return nil
}

/// `data`'s bytes as Core Foundation itself reads them (`CFDataGetLength`, `CFDataGetBytePtr`).
func coreFoundationBytes(_ data: NSData) -> [UInt8] {
    let object = unsafeBitCast(data, to: CFData.self)
    let length = CFDataGetLength(object)
    guard length > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: CFDataGetBytePtr(object), count: length))
}
#endif
