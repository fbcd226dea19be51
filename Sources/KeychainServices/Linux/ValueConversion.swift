#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Foundation
import KeychainStore

/// Conversions between the objects callers put in dictionaries and the engine's values.
enum ValueConversion {
    /// What a dictionary value is, as the keychain sees it. Booleans are told from numbers by
    /// Foundation's type encoding, since on this platform both are NSNumber.
    /// `value` as bytes when it is data (``ResultObjects/data(_:)``: an `NSData` copied in one go).
    static func data(_ value: Any) -> Data? { ResultObjects.data(value) }

    static func input(_ value: Any) -> InputValue {
        // A Swift string first, by its exact type: otherwise every string (most values) would
        // first fail two bridging casts to data.
        if type(of: value) == String.self, let string = value as? String { return .string(string) }
        if let data = data(value) { return .data(data) }
        switch value {
        case let string as String: return .string(string)
        case let date as Date: return .date(date.timeIntervalSinceReferenceDate)
        case is NSNull: return .null
        case let bool as Bool where type(of: value) == Bool.self: return .boolean(bool)
        case let number as NSNumber:
            if number.isBooleanObject { return .boolean(number.boolValue) }
            switch UInt8(bitPattern: number.objCType.pointee) {
            case UInt8(ascii: "f"), UInt8(ascii: "d"): return .real(number.doubleValue)
            case UInt8(ascii: "Q"):
                // Unsigned 64-bit values above Int64.max cannot be stored as Apple's signed integers.
                guard number.uint64Value <= UInt64(Int64.max) else { return .real(number.doubleValue) }
                return .integer(Int64(number.uint64Value))
            default: return .integer(number.int64Value)
            }
        default: return .unsupported
        }
    }

    /// True when `value` is a boolean object (kCFBooleanTrue/False or a Swift Bool).
    static func boolean(_ value: Any) -> Bool? {
        if type(of: value) == Bool.self { return value as? Bool }
        if let number = value as? NSNumber, number.isBooleanObject { return number.boolValue }
        return nil
    }

    /// The object handed out for a stored value (to callers, and into the query that
    /// IdentityDecomposition builds from a found item): strings as NSString, data as a ``ResultData``,
    /// numbers (and booleans) as NSNumber, dates as NSDate.
    static func object(_ value: AttributeValue) -> AnyObject {
        switch value {
        case .string(let s): return s as NSString
        case .data(let d): return d.resultObject
        case .integer(let i): return NSNumber(value: i)
        case .real(let r): return NSNumber(value: r)
        case .date(let t): return NSDate(timeIntervalSinceReferenceDate: t)
        }
    }
}
#endif
