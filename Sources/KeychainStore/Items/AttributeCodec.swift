#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Serialises an item's attributes into the plaintext of its metadata blob and back.
///
/// Format (little-endian): version byte 1, attribute count (UInt16), then per attribute: name
/// length (UInt8), name bytes, a type tag and the value (`s`/`d`: UInt32 length and bytes,
/// `i`: Int64, `r`/`t`: Float64 bits). Decoding checks every length, so a damaged blob is an
/// error, never a crash.
enum AttributeCodec {
    static func encode(_ attributes: [String: AttributeValue]) -> Data {
        encode(sortedEntries: attributes.sorted { $0.key < $1.key })
    }

    /// The encoding of the attributes named in `sortedNames` (which must be sorted and unique)
    /// that `attributes` holds: the same bytes as ``encode(_:)`` of just those attributes.
    static func encode(_ attributes: [String: AttributeValue], sortedNames: [String]) -> Data {
        // A merge of two sorted lists rather than a dictionary lookup per name: hashing the
        // names was a large share of an add's instructions
        // (Benchmarks/notes/2026-11-21-add-against-the-floor.md).
        let entries = attributes.sorted { $0.key < $1.key }
        var selected: [(key: String, value: AttributeValue)] = []
        selected.reserveCapacity(entries.count)
        var nameIndex = 0
        for entry in entries {
            while nameIndex < sortedNames.count && sortedNames[nameIndex] < entry.key { nameIndex += 1 }
            if nameIndex == sortedNames.count { break }
            if sortedNames[nameIndex] == entry.key { selected.append(entry) }
        }
        return encode(sortedEntries: selected)
    }

    private static func encode(sortedEntries: [(key: String, value: AttributeValue)]) -> Data {
        // Built in a byte array and turned into Data once: many small appends to Data cost
        // several times more.
        var out: [UInt8] = []
        out.reserveCapacity(64 + sortedEntries.count * 48)
        out.append(1)
        append(UInt16(sortedEntries.count), to: &out)
        for (name, value) in sortedEntries {
            out.append(UInt8(name.utf8.count))
            out += name.utf8
            switch value {
            case .string(let s):
                out.append(0x73)
                append(UInt32(s.utf8.count), to: &out)
                out += s.utf8
            case .data(let d):
                out.append(0x64)
                append(UInt32(d.count), to: &out)
                out.append(bytesOf: d)
            case .integer(let i):
                out.append(0x69)
                append(UInt64(bitPattern: i), to: &out)
            case .real(let r):
                out.append(0x72)
                append(r.bitPattern, to: &out)
            case .date(let t):
                out.append(0x74)
                append(t.bitPattern, to: &out)
            }
        }
        return Data(out)
    }

    static func decode(_ data: Data) throws(KeychainStoreError) -> [String: AttributeValue] {
        var reader = ByteReader(data)
        guard try reader.byte() == 1 else { throw .decode("unknown attribute encoding version") }
        let count = Int(try reader.uint16())
        var attributes: [String: AttributeValue] = [:]
        attributes.reserveCapacity(count)
        for _ in 0..<count {
            let nameLength = Int(try reader.byte())
            guard let name = try reader.text(nameLength) else { throw .decode("attribute name is not UTF-8") }
            switch try reader.byte() {
            case 0x73:
                let length = Int(try reader.uint32())
                guard let s = try reader.text(length) else { throw .decode("string is not UTF-8") }
                attributes[name] = .string(s)
            case 0x64:
                let length = Int(try reader.uint32())
                attributes[name] = .data(try reader.bytes(length))
            case 0x69: attributes[name] = .integer(Int64(bitPattern: try reader.uint64()))
            case 0x72: attributes[name] = .real(Double(bitPattern: try reader.uint64()))
            case 0x74: attributes[name] = .date(Double(bitPattern: try reader.uint64()))
            default: throw .decode("unknown attribute type tag")
            }
        }
        guard reader.isAtEnd else { throw .decode("trailing bytes after the attributes") }
        return attributes
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }
}

/// Bounds-checked reading of a byte buffer.
struct ByteReader {
    // A byte array, not Data: the decoder reads every item's attributes byte by byte, and each
    // access to Data's storage costs a dynamic exclusivity check and more.
    private let bytes: [UInt8]
    private var offset = 0

    init(_ data: Data) {
        // Copied through the bytes in one go.
        self.bytes = data.withUnsafeBytes { [UInt8]($0) }
    }

    var isAtEnd: Bool { offset == bytes.count }

    mutating func bytes(_ count: Int) throws(KeychainStoreError) -> Data {
        Data(try slice(count))
    }

    /// The next `count` bytes as UTF-8 text; nil when they are not valid UTF-8.
    mutating func text(_ count: Int) throws(KeychainStoreError) -> String? {
        let bytes = try slice(count)
        // ASCII (every attribute name, most values) is valid UTF-8 as it stands: the general
        // validation costs several times more.
        if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        return String(validating: bytes, as: UTF8.self)
    }

    private mutating func slice(_ count: Int) throws(KeychainStoreError) -> ArraySlice<UInt8> {
        guard count >= 0, bytes.count - offset >= count else { throw .decode("truncated data") }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    mutating func byte() throws(KeychainStoreError) -> UInt8 {
        guard offset < bytes.count else { throw .decode("truncated data") }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func uint16() throws(KeychainStoreError) -> UInt16 { try integer() }
    mutating func uint32() throws(KeychainStoreError) -> UInt32 { try integer() }
    mutating func uint64() throws(KeychainStoreError) -> UInt64 { try integer() }

    /// A little-endian integer, read in place.
    private mutating func integer<T: FixedWidthInteger>() throws(KeychainStoreError) -> T {
        let size = MemoryLayout<T>.size
        guard bytes.count - offset >= size else { throw .decode("truncated data") }
        var value: T = 0
        for shift in 0..<size { value |= T(bytes[offset + shift]) << (8 * shift) }
        offset += size
        return value
    }
}

extension Array where Element == UInt8 {
    /// Appends `data`'s bytes in one copy. `+=` with a `Data` goes through the generic sequence
    /// path, element by element (Benchmarks/notes/2026-11-21-add-against-the-floor.md).
    mutating func append(bytesOf data: Data) {
        data.withUnsafeBytes { append(contentsOf: $0) }
    }
}
