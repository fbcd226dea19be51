import CDBus
import Foundation
import KeychainLocking

/// The DBUS_TYPE_* codes: libdbus spells them as character macros (`((int) 's')`), which Swift
/// does not import.
enum TypeCode {
    static let invalid: Int32 = 0
    static let byte = code("y"), boolean = code("b"), int16 = code("n"), uint16 = code("q")
    static let int32 = code("i"), uint32 = code("u"), int64 = code("x"), uint64 = code("t")
    static let double = code("d"), string = code("s"), objectPath = code("o"), signature = code("g")
    static let unixFD = code("h"), array = code("a"), variant = code("v")
    static let structure = code("r"), dictEntry = code("e")

    private static func code(_ character: Unicode.Scalar) -> Int32 { Int32(UInt8(ascii: character)) }
}

/// Converts message arguments to and from ``DBusValue`` with libdbus's iterators.
///
/// Decoding reads what libdbus has already validated (every received or demarshalled message is
/// checked against its signature, UTF-8 and object-path syntax included), so it looks at each
/// argument's type before reading it and throws, never traps, on a type it does not model
/// (Unix file descriptors). Encoding first checks the whole value against everything libdbus
/// would otherwise enforce with a fatal assertion (names, paths, signatures, strings without
/// NUL, element signatures, nesting depth, array size), so a bad value is a thrown error.
enum DBusCodec {
    // MARK: Decoding

    static func decodeArguments(of message: OpaquePointer) throws(DBusError) -> [DBusValue] {
        try withIterator { (iterator) throws(DBusError) -> [DBusValue] in
            guard dbus_message_iter_init(message, iterator) != 0 else { return [] }
            var values: [DBusValue] = []
            while dbus_message_iter_get_arg_type(iterator) != TypeCode.invalid {
                values.append(try decode(iterator))
                dbus_message_iter_next(iterator)
            }
            return values
        }
    }

    private static func decode(_ iterator: UnsafeMutablePointer<DBusMessageIter>) throws(DBusError) -> DBusValue {
        let type = dbus_message_iter_get_arg_type(iterator)
        switch type {
        case TypeCode.byte: return .byte(basic(iterator, UInt8(0)))
        case TypeCode.boolean: return .boolean(basic(iterator, dbus_bool_t(0)) != 0)
        case TypeCode.int16: return .int16(basic(iterator, Int16(0)))
        case TypeCode.uint16: return .uint16(basic(iterator, UInt16(0)))
        case TypeCode.int32: return .int32(basic(iterator, Int32(0)))
        case TypeCode.uint32: return .uint32(basic(iterator, UInt32(0)))
        case TypeCode.int64: return .int64(basic(iterator, Int64(0)))
        case TypeCode.uint64: return .uint64(basic(iterator, UInt64(0)))
        case TypeCode.double: return .double(basic(iterator, Double(0)))
        case TypeCode.string: return .string(string(iterator))
        case TypeCode.objectPath: return .objectPath(string(iterator))
        case TypeCode.signature: return .signature(string(iterator))
        case TypeCode.array:
            let elementType = dbus_message_iter_get_element_type(iterator)
            return try withIterator { (elements) throws(DBusError) -> DBusValue in
                dbus_message_iter_recurse(iterator, elements)
                if elementType == TypeCode.byte {
                    var pointer: UnsafeRawPointer?
                    var count: Int32 = 0
                    dbus_message_iter_get_fixed_array(elements, &pointer, &count)
                    guard let pointer, count > 0 else { return .bytes(Data()) }
                    return .bytes(Data(bytes: pointer, count: Int(count)))
                }
                var values: [DBusValue] = []
                while dbus_message_iter_get_arg_type(elements) != TypeCode.invalid {
                    values.append(try decode(elements))
                    dbus_message_iter_next(elements)
                }
                // A decoded value's signature is exactly its type's, so the first element names
                // the element type; only an empty array needs libdbus's copy of the signature.
                if let first = values.first { return .array(elementSignature: first.signature, values) }
                let signature = currentSignature(iterator)
                guard signature.hasPrefix("a") else { throw DBusError.invalidArgs("malformed array") }
                return .array(elementSignature: String(signature.dropFirst()), values)
            }
        case TypeCode.dictEntry:
            // Key and value read straight into the entry: no array of fields to make and free
            // for each entry of every dictionary a client sends.
            return try withIterator { (fields) throws(DBusError) -> DBusValue in
                dbus_message_iter_recurse(iterator, fields)
                guard let key = try next(fields), let value = try next(fields), try next(fields) == nil else {
                    throw DBusError.invalidArgs("malformed dict entry")
                }
                return .dictEntry(key, value)
            }
        case TypeCode.variant:
            return try withIterator { (fields) throws(DBusError) -> DBusValue in
                dbus_message_iter_recurse(iterator, fields)
                guard let inner = try next(fields), try next(fields) == nil else { throw DBusError.invalidArgs("malformed variant") }
                return .variant(inner)
            }
        case TypeCode.structure:
            return try withIterator { (fields) throws(DBusError) -> DBusValue in
                dbus_message_iter_recurse(iterator, fields)
                var values: [DBusValue] = []
                while dbus_message_iter_get_arg_type(fields) != TypeCode.invalid {
                    values.append(try decode(fields))
                    dbus_message_iter_next(fields)
                }
                guard !values.isEmpty else { throw DBusError.invalidArgs("malformed structure") }
                return .structure(values)
            }
        case TypeCode.unixFD:
            // Not read: dbus_message_iter_get_basic would hand us a duplicate to close. The
            // Secret Service passes no descriptors.
            throw DBusError.invalidArgs("Unix file descriptors are not supported")
        default:
            throw DBusError.invalidArgs("unknown D-Bus type code \(type)")
        }
    }

    /// The value at `iterator`, which then moves past it; nil at the end of its container.
    private static func next(_ iterator: UnsafeMutablePointer<DBusMessageIter>) throws(DBusError) -> DBusValue? {
        guard dbus_message_iter_get_arg_type(iterator) != TypeCode.invalid else { return nil }
        let value = try decode(iterator)
        dbus_message_iter_next(iterator)
        return value
    }

    private static func basic<T>(_ iterator: UnsafeMutablePointer<DBusMessageIter>, _ initial: T) -> T {
        var value = initial
        withUnsafeMutablePointer(to: &value) { dbus_message_iter_get_basic(iterator, UnsafeMutableRawPointer($0)) }
        return value
    }

    private static func string(_ iterator: UnsafeMutablePointer<DBusMessageIter>) -> String {
        var pointer: UnsafePointer<CChar>?
        dbus_message_iter_get_basic(iterator, &pointer)
        // libdbus has checked the UTF-8; String(cString:) would repair it rather than trap anyway.
        return pointer.map { String(cString: $0) } ?? ""
    }

    private static func currentSignature(_ iterator: UnsafeMutablePointer<DBusMessageIter>) -> String {
        guard let signature = dbus_message_iter_get_signature(iterator) else { return "" }
        defer { dbus_free(signature) }
        return String(cString: signature)
    }

    // MARK: Encoding

    /// Appends `values` to a message that has no arguments yet. Throws before touching the
    /// message when a value is invalid.
    static func encode(_ values: [DBusValue], into message: OpaquePointer) throws(DBusError) {
        try validate(values)
        try withIterator { (iterator) throws(DBusError) in
            dbus_message_iter_init_append(message, iterator)
            for value in values { try append(value, to: iterator) }
        }
    }

    /// Checks `values` as the arguments of one message.
    static func validate(_ values: [DBusValue]) throws(DBusError) {
        var signature = ""
        for value in values {
            let single = value.signature
            try checkSignature(single, single: true)
            try check(value, depth: 0)
            signature += single
        }
        try checkSignature(signature, single: false)
    }

    private static func checkSignature(_ signature: String, single: Bool) throws(DBusError) {
        // A reply's few signatures ("ao", "(oayays)"...) come back on every call; libdbus's
        // validator builds a string and walks it each time.
        if validSignatures.withLock({ $0.contains(ValidSignature(text: signature, single: single)) }) { return }
        guard !containsNUL(signature) else { throw DBusError.invalidArgs("invalid signature") }
        let valid = signature.withCString { single ? dbus_signature_validate_single($0, nil) : dbus_signature_validate($0, nil) }
        guard valid != 0 else { throw DBusError.invalidArgs("invalid signature \"\(signature.prefix(64))\"") }
        validSignatures.withLock { known in
            // Bounded: values a peer shapes (a variant's contents) could otherwise grow it.
            if known.count >= 128 { known.removeAll(keepingCapacity: true) }
            known.insert(ValidSignature(text: signature, single: single))
        }
    }

    /// A signature libdbus accepted, as one complete type (`single`) or as a list of them.
    private struct ValidSignature: Hashable {
        let text: String
        let single: Bool
    }

    /// Behind `Locked`, not `Mutex`: the sanitizer run reported two critical sections of a
    /// `Mutex` here as a race (KeychainLocking's Locked.swift says why).
    private static let validSignatures = Locked<Set<ValidSignature>>([])

    /// The container depth libdbus accepts on receipt (validate_body_helper: 2 × 32).
    static let maximumDepth = 64

    /// Everything a signature does not say: contents of strings, paths and signatures, element
    /// signatures, variant contents, nesting depth, array size. `depth` counts the containers
    /// around `value` as libdbus's validator does.
    private static func check(_ value: DBusValue, depth: Int) throws(DBusError) {
        guard depth <= maximumDepth else { throw DBusError.invalidArgs("values nested deeper than \(maximumDepth)") }
        switch value {
        case .byte, .boolean, .int16, .uint16, .int32, .uint32, .int64, .uint64, .double:
            break
        case .string(let string):
            guard !containsNUL(string) else { throw DBusError.invalidArgs("a string contains NUL") }
        case .objectPath(let path):
            guard isValid(path, dbus_validate_path) else { throw DBusError.invalidArgs("invalid object path") }
        case .signature(let signature):
            try checkSignature(signature, single: false)
        case .bytes(let data):
            guard data.count <= Int(DBUS_MAXIMUM_ARRAY_LENGTH) else { throw DBusError.invalidArgs("array too long") }
        case .array(let elementSignature, let elements):
            // Fixed-size elements are not descended into by libdbus's validator, so they do not
            // count towards the depth.
            // One complete type: inside a structure, "a" + "bb" would pass as two fields.
            try checkSignature("a" + elementSignature, single: true)
            let fixed = elementSignature.utf8.count == 1 && "ybnqiuxtdh".utf8.contains(elementSignature.utf8.first!)
            for element in elements {
                guard element.hasSignature(elementSignature) else {
                    throw DBusError.invalidArgs("an element of an array of \"\(elementSignature.prefix(64))\" has signature \"\(element.signature.prefix(64))\"")
                }
                try check(element, depth: fixed ? depth : depth + 1)
            }
        case .dictEntry(let key, let value):
            try check(key, depth: depth + 1)
            try check(value, depth: depth + 1)
        case .structure(let fields):
            for field in fields { try check(field, depth: depth + 1) }
        case .variant(let inner):
            try checkSignature(inner.signature, single: true)
            try check(inner, depth: depth + 1)
        }
    }

    private static func append(_ value: DBusValue, to iterator: UnsafeMutablePointer<DBusMessageIter>) throws(DBusError) {
        var ok: dbus_bool_t = 1
        switch value {
        case .byte(let v): ok = appendBasic(iterator, TypeCode.byte, v)
        case .boolean(let v): ok = appendBasic(iterator, TypeCode.boolean, dbus_bool_t(v ? 1 : 0))
        case .int16(let v): ok = appendBasic(iterator, TypeCode.int16, v)
        case .uint16(let v): ok = appendBasic(iterator, TypeCode.uint16, v)
        case .int32(let v): ok = appendBasic(iterator, TypeCode.int32, v)
        case .uint32(let v): ok = appendBasic(iterator, TypeCode.uint32, v)
        case .int64(let v): ok = appendBasic(iterator, TypeCode.int64, v)
        case .uint64(let v): ok = appendBasic(iterator, TypeCode.uint64, v)
        case .double(let v): ok = appendBasic(iterator, TypeCode.double, v)
        case .string(let s): ok = appendString(iterator, TypeCode.string, s)
        case .objectPath(let s): ok = appendString(iterator, TypeCode.objectPath, s)
        case .signature(let s): ok = appendString(iterator, TypeCode.signature, s)
        case .bytes(let data):
            try container(iterator, TypeCode.array, "y") { (elements) throws(DBusError) in
                let appended = data.withUnsafeBytes { buffer -> dbus_bool_t in
                    // An empty array still needs a non-NULL pointer to its (absent) elements.
                    var base = buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
                    return dbus_message_iter_append_fixed_array(elements, TypeCode.byte, &base, Int32(buffer.count))
                }
                guard appended != 0 else { throw outOfMemory }
            }
        case .array(let elementSignature, let elements):
            try container(iterator, TypeCode.array, elementSignature) { (sub) throws(DBusError) in
                for element in elements { try append(element, to: sub) }
            }
        case .dictEntry(let key, let value):
            try container(iterator, TypeCode.dictEntry, nil) { (sub) throws(DBusError) in
                try append(key, to: sub)
                try append(value, to: sub)
            }
        case .structure(let fields):
            try container(iterator, TypeCode.structure, nil) { (sub) throws(DBusError) in
                for field in fields { try append(field, to: sub) }
            }
        case .variant(let inner):
            try container(iterator, TypeCode.variant, inner.signature) { (sub) throws(DBusError) in
                try append(inner, to: sub)
            }
        }
        guard ok != 0 else { throw outOfMemory }
    }

    private static var outOfMemory: DBusError { DBusError(name: "org.freedesktop.DBus.Error.NoMemory", message: "out of memory") }

    private static func appendBasic<T>(_ iterator: UnsafeMutablePointer<DBusMessageIter>, _ type: Int32, _ value: T) -> dbus_bool_t {
        var value = value
        return withUnsafePointer(to: &value) { dbus_message_iter_append_basic(iterator, type, UnsafeRawPointer($0)) }
    }

    private static func appendString(_ iterator: UnsafeMutablePointer<DBusMessageIter>, _ type: Int32, _ string: String) -> dbus_bool_t {
        string.withCString { pointer in
            var pointer: UnsafePointer<CChar>? = pointer
            return dbus_message_iter_append_basic(iterator, type, &pointer)
        }
    }

    private static func container(_ iterator: UnsafeMutablePointer<DBusMessageIter>, _ type: Int32, _ contained: String?,
                                  _ body: (UnsafeMutablePointer<DBusMessageIter>) throws(DBusError) -> Void) throws(DBusError) {
        try withIterator { (sub) throws(DBusError) in
            let opened: dbus_bool_t = if let contained {
                contained.withCString { dbus_message_iter_open_container(iterator, type, $0, sub) }
            } else {
                dbus_message_iter_open_container(iterator, type, nil, sub)
            }
            guard opened != 0 else { throw outOfMemory }
            do throws(DBusError) {
                try body(sub)
            } catch {
                dbus_message_iter_abandon_container(iterator, sub)
                throw error
            }
            guard dbus_message_iter_close_container(iterator, sub) != 0 else { throw outOfMemory }
        }
    }

    // MARK: Shaped replies

    /// Whether every path is one libdbus accepts as an object path.
    static func isValid(objectPaths paths: [String]) -> Bool {
        paths.allSatisfy { isValid($0, dbus_validate_path) }
    }

    /// Whether every entry can be written: valid paths, a content type without NUL, byte arrays
    /// within D-Bus's array limit.
    static func isValid(_ entries: [DBusPathSecret]) -> Bool {
        let limit = Int(DBUS_MAXIMUM_ARRAY_LENGTH)
        return entries.allSatisfy { entry in
            isValid(entry.path, dbus_validate_path) && isValid(entry.session, dbus_validate_path)
                && !containsNUL(entry.contentType) && entry.parameters.count <= limit && entry.value.count <= limit
        }
    }

    /// Appends an `ao` of paths already checked with ``isValid(objectPaths:)``.
    static func appendObjectPaths(_ paths: [String], to iterator: UnsafeMutablePointer<DBusMessageIter>) throws(DBusError) {
        try container(iterator, TypeCode.array, "o") { (elements) throws(DBusError) in
            for path in paths {
                guard appendString(elements, TypeCode.objectPath, path) != 0 else { throw outOfMemory }
            }
        }
    }

    /// Appends an `a{o(oayays)}` of entries already checked with ``isValid(_:)``.
    static func appendSecretsByPath(_ entries: [DBusPathSecret], to iterator: UnsafeMutablePointer<DBusMessageIter>) throws(DBusError) {
        try container(iterator, TypeCode.array, "{o(oayays)}") { (dictionary) throws(DBusError) in
            for entry in entries {
                try container(dictionary, TypeCode.dictEntry, nil) { (pair) throws(DBusError) in
                    guard appendString(pair, TypeCode.objectPath, entry.path) != 0 else { throw outOfMemory }
                    try container(pair, TypeCode.structure, nil) { (fields) throws(DBusError) in
                        guard appendString(fields, TypeCode.objectPath, entry.session) != 0 else { throw outOfMemory }
                        try append(.bytes(entry.parameters), to: fields)
                        try append(.bytes(entry.value), to: fields)
                        guard appendString(fields, TypeCode.string, entry.contentType) != 0 else { throw outOfMemory }
                    }
                }
            }
        }
    }

    // MARK: Helpers

    /// Whether `text` holds a NUL byte (C would see only what precedes it). memchr on the
    /// string's own bytes: the UTF-8 view's iterator went byte by byte through a call each.
    static func containsNUL(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return false }
            return memchr(base, 0, bytes.count) != nil
        }
    }

    /// A message iterator at a fixed address for the duration of `body`, on the stack (one per
    /// container of every message: a heap block each was a malloc and a free per container).
    static func withIterator<R>(_ body: (UnsafeMutablePointer<DBusMessageIter>) throws(DBusError) -> R) throws(DBusError) -> R {
        var iterator = DBusMessageIter()
        return try withUnsafeMutablePointer(to: &iterator) { (pointer) throws(DBusError) -> R in try body(pointer) }
    }

    /// Whether libdbus's validator for names, paths or UTF-8 accepts `string`; a string with a NUL
    /// is never valid (C would see only its start).
    static func isValid(_ string: String, _ validator: (UnsafePointer<CChar>?, UnsafeMutablePointer<CDBus.DBusError>?) -> dbus_bool_t) -> Bool {
        guard !containsNUL(string) else { return false }
        return string.withCString { validator($0, nil) } != 0
    }
}
