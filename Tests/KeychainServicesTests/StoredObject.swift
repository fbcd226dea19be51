// Core Foundation's own names, apart from KeychainServices' (the two modules name the same
// functions and constants, so no file can import both).
#if !(os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
import CoreFoundation
import Foundation

/// The object `dictionary` holds under `key`, as stored: its subscript hands data out bridged
/// to `Data`, which hides the class the dictionary was given.
func storedObject(_ dictionary: NSDictionary, _ key: String) -> AnyObject? {
    let name = key as NSString
    return withExtendedLifetime(name) {
        CFDictionaryGetValue(unsafeBitCast(dictionary, to: CFDictionary.self), Unmanaged.passUnretained(name).toOpaque())
            .map { Unmanaged<AnyObject>.fromOpaque($0).takeUnretainedValue() }
    }
}
#endif
