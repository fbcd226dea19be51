#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
public import Foundation

// Linux's CoreFoundation module is not bridged to Foundation as Apple's is (its CFDictionary is
// not an NSDictionary), so Apple-style keychain code would not compile against it. The handful of
// names that code uses are declared here as aliases of the Foundation classes that play the same
// role. With these, `query as CFDictionary`, `var result: CFTypeRef?`, `result as? Data`,
// `"x" as CFString` and `kCFBooleanTrue!` compile unchanged. CoreFoundation itself is imported
// only internally, by the two files that read Foundation's objects as stored
// (`NSDictionary+Entries.swift`, `ResultObjects.swift`), and never reaches callers.

/// Any CoreFoundation object: here, any class instance.
public typealias CFTypeRef = AnyObject
/// Stand-in for CoreFoundation's string type.
public typealias CFString = NSString
/// Stand-in for CoreFoundation's mutable string type.
public typealias CFMutableString = NSMutableString
/// Stand-in for CoreFoundation's dictionary type.
public typealias CFDictionary = NSDictionary
/// Stand-in for CoreFoundation's mutable dictionary type.
public typealias CFMutableDictionary = NSMutableDictionary
/// Stand-in for CoreFoundation's array type.
public typealias CFArray = NSArray
/// Stand-in for CoreFoundation's data type.
public typealias CFData = NSData
/// Stand-in for CoreFoundation's number type.
public typealias CFNumber = NSNumber
/// Stand-in for CoreFoundation's boolean type (a number whose type is `c`, as Foundation makes it).
public typealias CFBoolean = NSNumber
/// Stand-in for CoreFoundation's date type.
public typealias CFDate = NSDate
/// Stand-in for CoreFoundation's null singleton type.
public typealias CFNull = NSNull
/// Stand-in for CoreFoundation's error type.
public typealias CFError = NSError
/// The name of an error domain.
public typealias CFErrorDomain = CFString
/// A signed count or index, as CoreFoundation uses it.
public typealias CFIndex = Int
/// The identifier of a CoreFoundation type, see ``CFGetTypeID(_:)``.
public typealias CFTypeID = UInt
/// Bit flags, as CoreFoundation spells them.
public typealias CFOptionFlags = UInt
/// Seconds since 2001-01-01 00:00:00 UTC, as CoreFoundation counts time.
public typealias CFAbsoluteTime = Double
/// A status code: zero for success, a negative `errSec*` value for a failure.
public typealias OSStatus = Int32
/// Four characters packed big-endian into 32 bits, as MacTypes.h declares it: the type of the
/// numbers stored under `kSecAttrCreator` and `kSecAttrType`.
public typealias FourCharCode = UInt32

/// Memory allocators do not exist on this platform; the type is kept so that signatures taking an
/// allocator compile. Pass `nil` or ``kCFAllocatorDefault``.
public final class CFAllocator: Sendable {
    fileprivate init() {}
}

/// The default allocator: always `nil` here.
public let kCFAllocatorDefault: CFAllocator! = nil
/// The allocator that frees nothing. As the deallocator of ``CFDataCreateWithBytesNoCopy(_:_:_:_:)``
/// it says that the bytes stay the caller's.
public let kCFAllocatorNull: CFAllocator! = CFAllocator()

/// The status meaning "no error".
public let noErr: OSStatus = 0

/// The boolean true object; compare with `===` or use it as a dictionary value.
public let kCFBooleanTrue: CFBoolean! = NSNumber(value: true)
/// The boolean false object.
public let kCFBooleanFalse: CFBoolean! = NSNumber(value: false)
/// The null object.
public let kCFNull: CFNull! = NSNull()
/// The Info.plist key of a bundle identifier.
nonisolated(unsafe) public let kCFBundleIdentifierKey: CFString! = "CFBundleIdentifier"
/// The error domain whose codes are `OSStatus` values.
nonisolated(unsafe) public let kCFErrorDomainOSStatus: CFErrorDomain! = "NSOSStatusErrorDomain"

/// Type identifiers returned by ``CFGetTypeID(_:)``. The numbers are ours; only equality matters.
private enum TypeIdentifier: CFTypeID {
    case other = 1, string, data, number, boolean, dictionary, array, date, null, error
}

/// The type identifier of an object, comparable with `CFStringGetTypeID()` and its siblings.
@discardableResult
public func CFGetTypeID(_ object: CFTypeRef?) -> CFTypeID {
    switch object {
    case is NSString, is String: return TypeIdentifier.string.rawValue
    case is NSData, is Data: return TypeIdentifier.data.rawValue
    case let number as NSNumber:
        return number.isBooleanObject ? TypeIdentifier.boolean.rawValue : TypeIdentifier.number.rawValue
    case is NSDictionary: return TypeIdentifier.dictionary.rawValue
    case is NSArray: return TypeIdentifier.array.rawValue
    case is NSDate, is Date: return TypeIdentifier.date.rawValue
    case is NSNull: return TypeIdentifier.null.rawValue
    case is NSError: return TypeIdentifier.error.rawValue
    case let object as any SecurityObject: return type(of: object).securityTypeID.rawValue
    default: return TypeIdentifier.other.rawValue
    }
}

/// The type identifier of strings.
@discardableResult
public func CFStringGetTypeID() -> CFTypeID { TypeIdentifier.string.rawValue }
/// The type identifier of data objects.
@discardableResult
public func CFDataGetTypeID() -> CFTypeID { TypeIdentifier.data.rawValue }
/// The type identifier of numbers (booleans have their own).
@discardableResult
public func CFNumberGetTypeID() -> CFTypeID { TypeIdentifier.number.rawValue }
/// The type identifier of booleans.
@discardableResult
public func CFBooleanGetTypeID() -> CFTypeID { TypeIdentifier.boolean.rawValue }
/// The type identifier of dictionaries.
@discardableResult
public func CFDictionaryGetTypeID() -> CFTypeID { TypeIdentifier.dictionary.rawValue }
/// The type identifier of arrays.
@discardableResult
public func CFArrayGetTypeID() -> CFTypeID { TypeIdentifier.array.rawValue }
/// The type identifier of dates.
@discardableResult
public func CFDateGetTypeID() -> CFTypeID { TypeIdentifier.date.rawValue }
/// The type identifier of the null object.
@discardableResult
public func CFNullGetTypeID() -> CFTypeID { TypeIdentifier.null.rawValue }
/// The type identifier of errors.
@discardableResult
public func CFErrorGetTypeID() -> CFTypeID { TypeIdentifier.error.rawValue }

/// The value of a boolean object.
@discardableResult
public func CFBooleanGetValue(_ boolean: CFBoolean!) -> Bool { boolean.boolValue }

/// The code of an error (for keychain errors, the `OSStatus`).
@discardableResult
public func CFErrorGetCode(_ error: CFError!) -> CFIndex { error.code }
/// The domain of an error.
@discardableResult
public func CFErrorGetDomain(_ error: CFError!) -> CFErrorDomain! { error.domain as NSString }
/// The user-info dictionary of an error.
@discardableResult
public func CFErrorCopyUserInfo(_ error: CFError!) -> CFDictionary! {
    NSDictionary(dictionary: error.userInfo)
}
/// A human-readable description of an error.
@discardableResult
public func CFErrorCopyDescription(_ error: CFError!) -> CFString! { error.localizedDescription as NSString }
/// Makes an error object, whose descriptions CoreFoundation's way (``CoreFoundationError``).
@discardableResult
public func CFErrorCreate(
    _ allocator: CFAllocator!, _ domain: CFErrorDomain!, _ code: CFIndex, _ userInfo: CFDictionary!
) -> CFError! {
    var info: [String: Any] = [:]
    if let userInfo {
        for (key, value) in userInfo { if let key = key as? String { info[key] = value } }
    }
    return CoreFoundationError(domain: domain as String, code: code, userInfo: info)
}

/// A data object holding a copy of `length` bytes at `bytes`; nil for a negative length or a
/// missing pointer with a positive length (where CoreFoundation would crash).
@discardableResult
public func CFDataCreate(_ allocator: CFAllocator!, _ bytes: UnsafePointer<UInt8>!, _ length: CFIndex) -> CFData! {
    guard length >= 0 else { return nil }
    guard length > 0 else { return Data().resultObject }
    guard let bytes else { return nil }
    return Data(bytes: bytes, count: length).resultObject
}

/// A data object over `length` bytes at `bytes`. CoreFoundation keeps the caller's buffer and
/// frees it with `bytesDeallocator` when the object goes (never, for ``kCFAllocatorNull``);
/// here the bytes are copied at once, which the caller cannot tell apart, and a buffer handed
/// over with any other deallocator (nil or ``kCFAllocatorDefault``: `malloc`'s) is freed then.
/// Apple's "Storing CryptoKit Keys in the Keychain" sample turns key bytes into `Data` this way.
@discardableResult
public func CFDataCreateWithBytesNoCopy(_ allocator: CFAllocator!, _ bytes: UnsafePointer<UInt8>!, _ length: CFIndex,
                                        _ bytesDeallocator: CFAllocator!) -> CFData! {
    let data = CFDataCreate(allocator, bytes, length)
    if let bytes, data != nil, bytesDeallocator !== kCFAllocatorNull { free(UnsafeMutableRawPointer(mutating: bytes)) }
    return data
}

/// Reference counting is automatic here; kept so that code calling it compiles.
@discardableResult
public func CFRetain(_ object: CFTypeRef!) -> CFTypeRef! { object }
/// Reference counting is automatic here; kept so that code calling it compiles.
public func CFRelease(_ object: CFTypeRef!) {}

/// Whether two objects are equal, as CoreFoundation compares them.
@discardableResult
public func CFEqual(_ lhs: CFTypeRef!, _ rhs: CFTypeRef!) -> Bool {
    guard let lhs = lhs as? NSObject, let rhs = rhs as? NSObject else { return lhs === rhs }
    return lhs.isEqual(rhs)
}

extension NSNumber {
    /// Whether Foundation made this number from a Swift `Bool` (its type encoding is `c`).
    /// This is how booleans are told from integers here, where CFBoolean is not a separate class.
    var isBooleanObject: Bool {
        objCType.pointee == CChar(UInt8(ascii: "c"))
    }
}
#endif
