package import Foundation

/// One D-Bus value, of any type the Secret Service uses (everything but Unix file descriptors).
///
/// Containers carry what their elements cannot say alone: an array its element signature (so an
/// empty `a{ss}` is still an `a{ss}`), a variant the value inside it. `ay` always decodes to
/// ``bytes(_:)``; every other array, dictionaries included, to ``array(elementSignature:_:)``.
package indirect enum DBusValue: Sendable, Hashable {
    case byte(UInt8), boolean(Bool), int16(Int16), uint16(UInt16), int32(Int32), uint32(UInt32)
    case int64(Int64), uint64(UInt64), double(Double)
    case string(String), objectPath(String), signature(String)
    case bytes(Data)
    case array(elementSignature: String, [DBusValue])
    case dictEntry(DBusValue, DBusValue)
    case structure([DBusValue])
    case variant(DBusValue)

    /// The value's D-Bus type signature, e.g. "a{sv}", "(oayays)". Computed from the value, not
    /// checked: an invalid value (a dict entry outside an array, an empty structure) has an
    /// invalid signature, and encoding it throws.
    package var signature: String {
        switch self {
        case .byte: "y"
        case .boolean: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .bytes: "ay"
        case .array(let element, _): "a" + element
        case .dictEntry(let key, let value): "{" + key.signature + value.signature + "}"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        case .variant: "v"
        }
    }
}

extension DBusValue {
    /// A dictionary (`a{<key><value>}`) from pairs, in their order.
    package static func dictionary(keySignature: String, valueSignature: String,
                                   _ entries: [(DBusValue, DBusValue)]) -> DBusValue {
        .array(elementSignature: "{" + keySignature + valueSignature + "}",
               entries.map { .dictEntry($0.0, $0.1) })
    }

    /// An `a{ss}`, the Secret Service's attribute dictionaries, sorted by key.
    package static func stringDictionary(_ dictionary: [String: String]) -> DBusValue {
        .dictionary(keySignature: "s", valueSignature: "s",
                    dictionary.sorted { $0.key < $1.key }.map { (.string($0.key), .string($0.value)) })
    }

    /// The string inside `.string`, `.objectPath` or `.signature`.
    package var stringValue: String? {
        switch self {
        case .string(let s), .objectPath(let s), .signature(let s): s
        default: nil
        }
    }

    /// An `a{ss}` (or any dictionary with string keys and values) as a Swift dictionary; nil
    /// for anything else. A key given twice keeps its last value.
    package var stringDictionaryValue: [String: String]? {
        guard case .array(_, let entries) = self else { return nil }
        var result: [String: String] = [:]
        for entry in entries {
            guard case .dictEntry(let key, let value) = entry,
                  let k = key.stringValue, let v = value.stringValue else { return nil }
            result[k] = v
        }
        return result
    }
}

/// An error reply (or a local failure named like one): `name` is a D-Bus error name such as
/// `org.freedesktop.DBus.Error.Failed`.
package struct DBusError: Error, Sendable, Equatable, CustomStringConvertible {
    package let name: String
    package let message: String

    package init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    package var description: String { "\(name): \(message)" }

    package static let failedName = "org.freedesktop.DBus.Error.Failed"
    package static let invalidArgsName = "org.freedesktop.DBus.Error.InvalidArgs"

    static func failed(_ message: String) -> DBusError { DBusError(name: failedName, message: message) }
    static func invalidArgs(_ message: String) -> DBusError { DBusError(name: invalidArgsName, message: message) }
}
