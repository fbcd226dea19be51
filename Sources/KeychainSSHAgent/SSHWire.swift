import Foundation

/// Why a message could not be read: it ended early, or a field held something the protocol
/// does not allow. Never carries the bytes themselves (they may be key material).
package enum SSHWireError: Error, Equatable, Sendable {
    case truncated
    case malformed(String)
}

/// Reads the SSH wire encodings (RFC 4251 section 5) the agent protocol is made of: bytes,
/// big-endian 32-bit integers, length-prefixed strings and mpints. Every read checks the length
/// against what is left, so a hostile length is an error, never a trap or a huge allocation.
package struct SSHWireReader {
    private let bytes: [UInt8]
    private var position = 0

    package init<Bytes: Collection<UInt8>>(_ bytes: Bytes) { self.bytes = Array(bytes) }

    package var isAtEnd: Bool { position == bytes.count }
    package var remainingCount: Int { bytes.count - position }

    package mutating func readByte() throws(SSHWireError) -> UInt8 {
        guard position < bytes.count else { throw .truncated }
        defer { position += 1 }
        return bytes[position]
    }

    package mutating func readUInt32() throws(SSHWireError) -> UInt32 {
        guard remainingCount >= 4 else { throw .truncated }
        var value: UInt32 = 0
        for offset in 0..<4 { value = value << 8 | UInt32(bytes[position + offset]) }
        position += 4
        return value
    }

    /// A `string`: a 32-bit length, then that many bytes.
    package mutating func readString() throws(SSHWireError) -> [UInt8] {
        let length = Int(try readUInt32())
        guard length <= remainingCount else { throw .truncated }
        defer { position += length }
        return Array(bytes[position..<position + length])
    }

    /// A `string` that must be UTF-8 text (names, comments).
    package mutating func readText() throws(SSHWireError) -> String {
        let raw = try readString()
        guard let text = String(validating: raw, as: UTF8.self) else { throw .malformed("text that is not UTF-8") }
        return text
    }

    /// A non-negative `mpint`, as its magnitude without leading zero bytes. A negative one (the
    /// top bit of its first byte set) is refused: no key part of the agent protocol is negative.
    package mutating func readPositiveMPInt() throws(SSHWireError) -> [UInt8] {
        let raw = try readString()
        if let first = raw.first, first & 0x80 != 0 { throw .malformed("a negative mpint") }
        return Array(raw.drop { $0 == 0 })
    }

    /// What is left, consumed.
    package mutating func readRest() -> [UInt8] {
        defer { position = bytes.count }
        return Array(bytes[position...])
    }
}

/// Writes the same encodings.
package struct SSHWireWriter {
    package private(set) var bytes: [UInt8] = []

    package init() {}

    package mutating func writeByte(_ value: UInt8) { bytes.append(value) }

    package mutating func writeUInt32(_ value: UInt32) {
        bytes += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    package mutating func writeString<Bytes: Collection<UInt8>>(_ value: Bytes) {
        writeUInt32(UInt32(value.count))
        bytes += value
    }

    package mutating func writeString(_ text: String) { writeString(Array(text.utf8)) }

    /// A non-negative `mpint` from its big-endian magnitude: leading zeros dropped, and one
    /// zero byte put back in front when the top bit is set, so that it does not read as negative.
    package mutating func writePositiveMPInt<Bytes: Collection<UInt8>>(_ magnitude: Bytes) {
        var trimmed = Array(magnitude.drop { $0 == 0 })
        if let first = trimmed.first, first & 0x80 != 0 { trimmed.insert(0, at: 0) }
        writeString(trimmed)
    }
}
