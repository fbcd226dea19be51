package import Foundation

/// One D-Bus value, of any type the Secret Service uses (everything but Unix file descriptors).
///
/// Containers carry what their elements cannot say alone: an array its element signature (so an
/// empty `a{ss}` is still an `a{ss}`), a variant the value inside it. `ay` always decodes to
/// ``bytes(_:)``; every other array, dictionaries included, to ``array(elementSignature:_:)``.
///
/// Only the two cases that hold a value directly are `indirect`: an indirect case is a heap box
/// of its own, and with the whole enum indirect every string of every message was one more
/// allocation to make and free (arrays and structures already keep their elements in a buffer).
package enum DBusValue: Sendable, Hashable {
    case byte(UInt8), boolean(Bool), int16(Int16), uint16(UInt16), int32(Int32), uint32(UInt32)
    case int64(Int64), uint64(UInt64), double(Double)
    case string(String), objectPath(String), signature(String)
    case bytes(Data)
    case array(elementSignature: String, [DBusValue])
    indirect case dictEntry(DBusValue, DBusValue)
    case structure([DBusValue])
    indirect case variant(DBusValue)

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

    /// Whether ``signature`` is `expected`, found by walking both rather than building the
    /// string (encoding checks every element of an array against the array's element
    /// signature, and building each element's signature was most of that check's cost).
    package func hasSignature(_ expected: String) -> Bool {
        var expected = expected
        return expected.withUTF8 { bytes in
            var position = 0
            return matchSignature(bytes, &position) && position == bytes.count
        }
    }

    /// Matches this value's signature against `bytes` from `position`, moving past it.
    private func matchSignature(_ bytes: UnsafeBufferPointer<UInt8>, _ position: inout Int) -> Bool {
        func take(_ code: Unicode.Scalar) -> Bool {
            guard position < bytes.count, bytes[position] == UInt8(ascii: code) else { return false }
            position += 1
            return true
        }
        switch self {
        case .byte: return take("y")
        case .boolean: return take("b")
        case .int16: return take("n")
        case .uint16: return take("q")
        case .int32: return take("i")
        case .uint32: return take("u")
        case .int64: return take("x")
        case .uint64: return take("t")
        case .double: return take("d")
        case .string: return take("s")
        case .objectPath: return take("o")
        case .signature: return take("g")
        case .bytes: return take("a") && take("y")
        case .array(let element, _):
            guard take("a") else { return false }
            var element = element
            return element.withUTF8 { elementBytes in
                guard bytes.count - position >= elementBytes.count else { return false }
                for index in elementBytes.indices where bytes[position + index] != elementBytes[index] { return false }
                position += elementBytes.count
                return true
            }
        case .dictEntry(let key, let value):
            return take("{") && key.matchSignature(bytes, &position) && value.matchSignature(bytes, &position) && take("}")
        case .structure(let fields):
            guard take("(") else { return false }
            for field in fields where !field.matchSignature(bytes, &position) { return false }
            return take(")")
        case .variant: return take("v")
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

/// One entry of ``DBusReply/secretsByPath(_:)``: the object's path, then the structure's four
/// fields (a session's path, two byte arrays, a string).
package struct DBusPathSecret: Sendable {
    package let path: String
    package let session: String
    package let parameters: Data
    package let value: Data
    package let contentType: String

    package init(path: String, session: String, parameters: Data, value: Data, contentType: String) {
        self.path = path
        self.session = session
        self.parameters = parameters
        self.value = value
        self.contentType = contentType
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
    package static let unknownMethodName = "org.freedesktop.DBus.Error.UnknownMethod"
    package static let unknownPropertyName = "org.freedesktop.DBus.Error.UnknownProperty"
    package static let propertyReadOnlyName = "org.freedesktop.DBus.Error.PropertyReadOnly"

    static func failed(_ message: String) -> DBusError { DBusError(name: failedName, message: message) }
    static func invalidArgs(_ message: String) -> DBusError { DBusError(name: invalidArgsName, message: message) }
}
