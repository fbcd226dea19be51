package import Foundation

/// A reader of GLib's GVariant serialisation, little-endian, for the types the keyring file
/// format of libsecret and oo7 is written in (`(uayutua(a{say}ay))` and `(a{ss}sttay)`): the
/// fixed-size numbers, strings, arrays, tuples and dictionary entries. Maybes and variants are
/// not supported.
///
/// The rules are GVariant's ("GVariant Serialisation", GLib's `gvariant-serialiser.c`): a fixed
/// size type is its bytes; a string is UTF-8 ending in one NUL; an array of fixed-size elements
/// is their concatenation, otherwise the elements (each aligned) followed by one framing offset
/// per element, each the end of its element; a tuple's members are laid out in order, each
/// aligned, and every variable-size member but the last has its end as a framing offset at the
/// end of the tuple, the first member's last. Framing offsets are 1, 2, 4 or 8 bytes, the least
/// that can hold the container's size.
///
/// Only data in normal form is accepted: anything else (a size that does not add up, an offset
/// outside its container, a string without its NUL or not UTF-8) throws, never traps, so that
/// a hostile file is refused rather than read some way. Nothing is allocated in proportion to a
/// count read from the data before the data has been seen to hold that many elements.
package enum GVariantReader {
    package indirect enum VariantType: Equatable, Sendable {
        case byte, boolean, int16, uint16, int32, uint32, int64, uint64, double
        case string, objectPath, signature
        case array(VariantType)
        case tuple([VariantType])
        case dictEntry(VariantType, VariantType)

        /// Parses one complete type string, such as `(a{ss}sttay)`.
        package init(_ signature: String) throws(GVariantError) {
            var characters = Array(signature.utf8)[...]
            self = try Self.parse(&characters, depth: 0)
            guard characters.isEmpty else { throw .badType(signature) }
        }

        private static func parse(_ text: inout ArraySlice<UInt8>, depth: Int) throws(GVariantError) -> VariantType {
            guard depth < 32, let first = text.popFirst() else { throw .badType("incomplete") }
            switch first {
            case UInt8(ascii: "y"): return .byte
            case UInt8(ascii: "b"): return .boolean
            case UInt8(ascii: "n"): return .int16
            case UInt8(ascii: "q"): return .uint16
            case UInt8(ascii: "i"), UInt8(ascii: "h"): return .int32
            case UInt8(ascii: "u"): return .uint32
            case UInt8(ascii: "x"): return .int64
            case UInt8(ascii: "t"): return .uint64
            case UInt8(ascii: "d"): return .double
            case UInt8(ascii: "s"): return .string
            case UInt8(ascii: "o"): return .objectPath
            case UInt8(ascii: "g"): return .signature
            case UInt8(ascii: "a"): return .array(try parse(&text, depth: depth + 1))
            case UInt8(ascii: "("):
                var members: [VariantType] = []
                while text.first != UInt8(ascii: ")") { members.append(try parse(&text, depth: depth + 1)) }
                text.removeFirst()
                return .tuple(members)
            case UInt8(ascii: "{"):
                let key = try parse(&text, depth: depth + 1), value = try parse(&text, depth: depth + 1)
                guard text.popFirst() == UInt8(ascii: "}") else { throw .badType("dictionary entry") }
                return .dictEntry(key, value)
            default:
                throw .badType(String(decoding: [first], as: UTF8.self))
            }
        }

        /// The alignment of the type's values, in bytes.
        var alignment: Int {
            switch self {
            case .byte, .boolean, .string, .objectPath, .signature: return 1
            case .int16, .uint16: return 2
            case .int32, .uint32: return 4
            case .int64, .uint64, .double: return 8
            case .array(let element): return element.alignment
            case .tuple(let members): return members.map(\.alignment).max() ?? 1
            case .dictEntry(let key, let value): return max(key.alignment, value.alignment)
            }
        }

        /// The size of every value of the type, or nil when values vary in size.
        var fixedSize: Int? {
            switch self {
            case .byte, .boolean: return 1
            case .int16, .uint16: return 2
            case .int32, .uint32: return 4
            case .int64, .uint64, .double: return 8
            case .string, .objectPath, .signature, .array: return nil
            case .tuple(let members): return Self.fixedSize(of: members, alignment: alignment)
            case .dictEntry(let key, let value): return Self.fixedSize(of: [key, value], alignment: alignment)
            }
        }

        private static func fixedSize(of members: [VariantType], alignment: Int) -> Int? {
            guard !members.isEmpty else { return 1 }  // the unit type is one zero byte
            var size = 0
            for member in members {
                guard let memberSize = member.fixedSize else { return nil }
                size = aligned(size, member.alignment) + memberSize
            }
            return aligned(size, alignment)
        }
    }

    package indirect enum Value: Equatable, Sendable {
        /// Any fixed-size number, as its bits (a double's too).
        case number(UInt64)
        case string(String)
        /// An array of bytes (`ay`).
        case bytes(Data)
        case array([Value])
        /// A tuple's members, or a dictionary entry's key and value.
        case tuple([Value])

        package var number: UInt64? { if case .number(let n) = self { return n } else { return nil } }
        package var string: String? { if case .string(let s) = self { return s } else { return nil } }
        package var bytes: Data? { if case .bytes(let b) = self { return b } else { return nil } }
        package var elements: [Value]? {
            switch self {
            case .array(let elements), .tuple(let elements): return elements
            default: return nil
            }
        }
    }

    package enum GVariantError: Error, Equatable, Sendable, CustomStringConvertible {
        case badType(String)
        /// The data is not a value of the type in normal form; the text says where.
        case malformed(String)

        package var description: String {
            switch self {
            case .badType(let what): return "unsupported GVariant type (\(what))"
            case .malformed(let what): return "malformed GVariant data (\(what))"
            }
        }
    }

    /// Reads `data` as one value of `type`.
    package static func read(_ type: VariantType, from data: some Collection<UInt8>) throws(GVariantError) -> Value {
        let bytes = Array(data)
        return try value(type, bytes, bytes.startIndex..<bytes.endIndex)
    }

    private static func value(_ type: VariantType, _ bytes: [UInt8], _ range: Range<Int>) throws(GVariantError) -> Value {
        if let size = type.fixedSize, range.count != size {
            throw .malformed("a value of fixed size \(size) has \(range.count) bytes")
        }
        switch type {
        case .byte, .boolean, .int16, .uint16, .int32, .uint32, .int64, .uint64, .double:
            return .number(littleEndian(bytes, range))
        case .string, .objectPath, .signature:
            guard let last = range.last, bytes[last] == 0 else { throw .malformed("a string does not end in NUL") }
            let content = bytes[range.lowerBound..<last]
            guard !content.contains(0), let text = String(validating: content, as: UTF8.self) else {
                throw .malformed("a string is not UTF-8 text")
            }
            return .string(text)
        case .array(let element):
            return try array(element, bytes, range)
        case .tuple(let members):
            return .tuple(try tuple(members, bytes, range))
        case .dictEntry(let key, let value):
            return .tuple(try tuple([key, value], bytes, range))
        }
    }

    private static func array(_ element: VariantType, _ bytes: [UInt8], _ range: Range<Int>) throws(GVariantError) -> Value {
        if let size = element.fixedSize {
            guard range.count % size == 0 else { throw .malformed("an array of \(size)-byte elements has \(range.count) bytes") }
            if element == .byte { return .bytes(Data(bytes[range])) }
            var values: [Value] = []
            var start = range.lowerBound
            while start < range.upperBound {
                values.append(try value(element, bytes, start..<start + size))
                start += size
            }
            return .array(values)
        }
        guard !range.isEmpty else { return .array([]) }
        let offsetSize = offsetSize(for: range.count)
        guard range.count >= offsetSize else { throw .malformed("an array is shorter than its framing offset") }
        let tableStart = try offset(bytes, at: range.upperBound - offsetSize, size: offsetSize)
        guard tableStart <= range.count - offsetSize, (range.count - tableStart) % offsetSize == 0 else {
            throw .malformed("an array's framing offsets do not fit it")
        }
        var values: [Value] = []
        var start = 0
        var slot = range.lowerBound + tableStart
        while slot < range.upperBound {
            let end = try offset(bytes, at: slot, size: offsetSize)
            start = aligned(start, element.alignment)
            guard start <= end, end <= tableStart else { throw .malformed("an array element's end is outside the array") }
            values.append(try value(element, bytes, range.lowerBound + start..<range.lowerBound + end))
            start = end
            slot += offsetSize
        }
        guard start == tableStart else { throw .malformed("an array's elements do not end where its offsets begin") }
        return .array(values)
    }

    private static func tuple(_ members: [VariantType], _ bytes: [UInt8], _ range: Range<Int>) throws(GVariantError) -> [Value] {
        guard !members.isEmpty else { return [] }  // the unit's one byte, already checked
        let offsetSize = offsetSize(for: range.count)
        var framingOffsets = 0
        var position = 0
        var values: [Value] = []
        for (index, member) in members.enumerated() {
            position = aligned(position, member.alignment)
            let end: Int
            if let size = member.fixedSize {
                end = position + size
            } else if index == members.count - 1 {
                end = range.count - framingOffsets * offsetSize
            } else {
                framingOffsets += 1
                guard framingOffsets * offsetSize <= range.count else { throw .malformed("a tuple is shorter than its framing offsets") }
                end = try offset(bytes, at: range.upperBound - framingOffsets * offsetSize, size: offsetSize)
            }
            guard position <= end, end <= range.count - framingOffsets * offsetSize else {
                throw .malformed("a tuple member lies outside the tuple")
            }
            values.append(try value(member, bytes, range.lowerBound + position..<range.lowerBound + end))
            position = end
        }
        if members.allSatisfy({ $0.fixedSize != nil }) { return values }  // padding only, size checked
        guard position == range.count - framingOffsets * offsetSize else {
            throw .malformed("a tuple's members do not end where its framing offsets begin")
        }
        return values
    }

    private static func offsetSize(for size: Int) -> Int {
        if size <= 0xFF { return 1 }
        if size <= 0xFFFF { return 2 }
        if UInt64(size) <= 0xFFFF_FFFF { return 4 }
        return 8
    }

    private static func offset(_ bytes: [UInt8], at index: Int, size: Int) throws(GVariantError) -> Int {
        let value = littleEndian(bytes, index..<index + size)
        guard value <= UInt64(Int.max) else { throw .malformed("a framing offset is out of range") }
        return Int(value)
    }

    private static func littleEndian(_ bytes: [UInt8], _ range: Range<Int>) -> UInt64 {
        var value: UInt64 = 0
        for index in range.reversed() { value = value << 8 | UInt64(bytes[index]) }
        return value
    }

    static func aligned(_ value: Int, _ alignment: Int) -> Int {
        (value + alignment - 1) / alignment * alignment
    }
}
