#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// A stored attribute value. The case records the type the caller gave, because Apple returns
/// attributes with their original type (an account written as data comes back as data).
package enum AttributeValue: Sendable, Hashable {
    case string(String)
    case data(Data)
    case integer(Int64)
    case real(Double)
    /// Seconds since 2001-01-01 00:00:00 UTC, as Core Foundation counts dates.
    case date(Double)
}

/// A value as a caller handed it in, before the schema decides what it becomes.
package enum InputValue: Sendable, Hashable {
    case string(String)
    case data(Data)
    case integer(Int64)
    case real(Double)
    case boolean(Bool)
    case date(Double)
    case null
    /// Arrays, dictionaries, and objects of other types: never a valid attribute value.
    case unsupported
}

extension AttributeValue {
    /// Converts a caller's value for an attribute of `kind`, as Security's `copyBlob`, `copyData`,
    /// `copyString`, `copyNumber`, `copyDate`, `copySHA1` and `copyUUID` do. A value that cannot
    /// be converted is `errSecParam`.
    package static func coerce(_ input: InputValue, to kind: AttributeKind) throws(KeychainStoreError) -> AttributeValue {
        switch (kind, input) {
        case (.blob, .string(let s)): return .string(s)
        case (.blob, .data(let d)): return .data(d)
        case (.blob, .integer(let i)): return .integer(i)
        case (.blob, .real(let r)): return .real(r)
        case (.blob, .boolean(let b)): return .integer(b ? 1 : 0)

        case (.data, .data(let d)): return .data(d)
        case (.data, .string(let s)): return .data(Data(s.utf8))
        case (.data, .integer(let i)): return .data(int32Bytes(i))
        case (.data, .boolean(let b)): return .data(int32Bytes(b ? 1 : 0))

        case (.string, .string(let s)), (.access, .string(let s)): return .string(s)
        case (.string, .data(let d)), (.access, .data(let d)):
            guard let s = String(validatingUTF8Data: d) else { throw .parameter("a string attribute was given data that is not UTF-8") }
            return .string(s)

        case (.number, .integer(let i)), (.sync, .integer(let i)), (.tomb, .integer(let i)): return .integer(i)
        case (.number, .real(let r)), (.sync, .real(let r)), (.tomb, .real(let r)):
            // Integral values are stored as integers, as SQLite's INTEGER affinity would.
            if let i = Int64(exactly: r) { return .integer(i) }
            return .real(r)
        case (.number, .boolean(let b)), (.sync, .boolean(let b)), (.tomb, .boolean(let b)): return .integer(b ? 1 : 0)
        case (.number, .string(let s)), (.sync, .string(let s)), (.tomb, .string(let s)):
            // Security keeps a string that does not round-trip through "%ld" as a string (iOS accepts
            // kSecAttrPort = "" without error).
            if let i = Int64(s), String(i) == s { return .integer(i) }
            return .string(s)

        case (.date, .date(let t)): return .date(t)

        case (.sha1, .data(let d)) where d.count == 20: return .data(d)
        case (.uuid, .data(let d)) where d.isEmpty || d.count == 16: return .data(d)
        case (.uuid, .null): return .data(Data())

        default:
            throw .parameter("an attribute value has a type its attribute does not accept")
        }
    }

    private static func int32Bytes(_ value: Int64) -> Data {
        withUnsafeBytes(of: Int32(truncatingIfNeeded: value).littleEndian) { Data($0) }
    }

    /// The bytes that decide equality for an attribute of `kind`: Apple compares blob and data
    /// attributes by the bytes of the value (so "a" equals <61>), strings by their text, numbers
    /// numerically and dates by their time.
    package func matchBytes(for kind: AttributeKind) -> [UInt8] {
        switch kind {
        case .blob, .data, .sha1, .uuid:
            switch self {
            case .string(let s): return Self.tagged(0x62, s.utf8)
            case .data(let d): return Self.tagged(0x62, d)
            case .integer(let i): return Self.tagged(0x62, Self.int32Bytes(i))
            case .real(let r): return Self.tagged(0x62, Self.int32Bytes(r.isFinite ? Int64(max(min(r, 9.2e18), -9.2e18)) : 0))
            case .date(let t): return Self.tagged(0x62, bits(t))
            }
        case .string, .access:
            switch self {
            case .string(let s): return Self.tagged(0x73, s.utf8)
            case .data(let d): return Self.tagged(0x73, d)
            default: return [0x78] + numericBytes
            }
        case .number, .sync, .tomb, .date:
            return numericBytes
        }
    }

    /// `tag` followed by `bytes`, in one allocation (these are built for every index and match).
    private static func tagged(_ tag: UInt8, _ bytes: some Collection<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(1 + bytes.count)
        out.append(tag)
        out += bytes
        return out
    }

    private var numericBytes: [UInt8] {
        switch self {
        case .integer(let i): return withUnsafeBytes(of: i.littleEndian) { Self.tagged(0x69, $0) }
        case .real(let r):
            if let i = Int64(exactly: r) { return AttributeValue.integer(i).numericBytes }
            return Self.tagged(0x72, bits(r))
        case .date(let t): return Self.tagged(0x74, bits(t))
        case .string(let s): return Self.tagged(0x73, s.utf8)
        case .data(let d): return Self.tagged(0x64, d)
        }
    }

    private func bits(_ value: Double) -> [UInt8] {
        // -0 and 0 are the same time; NaN has one representation.
        let normalised = value == 0 ? 0 : (value.isNaN ? Double.nan : value)
        return withUnsafeBytes(of: normalised.bitPattern.littleEndian) { Array($0) }
    }

    /// The value as an integer, when it is one.
    package var integerValue: Int64? {
        switch self {
        case .integer(let i): return i
        case .real(let r): return Int64(exactly: r)
        default: return nil
        }
    }

    /// The value as a string, when it is one.
    package var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The value as bytes, when it is data.
    package var dataValue: Data? {
        if case .data(let d) = self { return d }
        return nil
    }
}

extension String {
    /// Decodes UTF-8, refusing invalid sequences instead of repairing them.
    init?(validatingUTF8Data data: Data) {
        // The standard library's validating initialiser: several times faster than Foundation's
        // String(bytes:encoding:), and just as strict.
        guard let s = String(validating: data, as: UTF8.self) else { return nil }
        self = s
    }
}
