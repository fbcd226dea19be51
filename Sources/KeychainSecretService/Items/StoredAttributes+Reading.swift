import Foundation

/// Reads the record ``StoredAttributes/encoded`` writes without `JSONDecoder`.
///
/// Every Secret Service search answer and every secret read decodes an item's record, and
/// Foundation's `JSONDecoder` (a generic `Decodable` walk over a JSON tree) was about a fifth of
/// the daemon's work per lookup. The record is always the same small shape: an object with the
/// keys `attributes` (an object of strings) and `contentType` (a string). This reader accepts
/// exactly that shape, in any key order and with any JSON whitespace and escapes, and answers nil
/// for anything else (another key, a duplicate key, a value of another type, malformed text), in
/// which case the caller falls back to `JSONDecoder`, so that both always agree on what a record
/// says.
struct StoredAttributesReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// The record in `json`, or nil when it is not in the shape this reader knows.
    static func read<Bytes: DataProtocol>(_ json: Bytes) -> StoredAttributes? {
        let read: StoredAttributes?? = json.withContiguousStorageIfAvailable { buffer in
            var reader = StoredAttributesReader(buffer)
            return reader.record()
        }
        if let read { return read }
        return Array(json).withUnsafeBufferPointer { buffer in
            var reader = StoredAttributesReader(buffer)
            return reader.record()
        }
    }

    private mutating func record() -> StoredAttributes? {
        var attributes: [String: String]?
        var contentType: String?
        guard openObject() else { return nil }
        var more = !closeObjectIfEmpty()
        while more {
            guard let key = memberKey() else { return nil }
            switch key {
            case "attributes" where attributes == nil:
                guard let map = stringMap() else { return nil }
                attributes = map
            case "contentType" where contentType == nil:
                guard let text = string() else { return nil }
                contentType = text
            default:
                return nil
            }
            guard let next = afterMember() else { return nil }
            more = next
        }
        skipWhitespace()
        guard position == bytes.count, let attributes, let contentType else { return nil }
        return StoredAttributes(attributes: attributes, contentType: contentType)
    }

    /// An object whose values are all strings, with no key twice.
    private mutating func stringMap() -> [String: String]? {
        guard openObject() else { return nil }
        // Room for a handful of attributes from the start (a libsecret item has its schema and
        // two or three more): grown from empty, every hit's map was rehashed twice on the way.
        var map = [String: String](minimumCapacity: 6)
        var more = !closeObjectIfEmpty()
        while more {
            guard let key = memberKey(), let value = string(), map.updateValue(value, forKey: key) == nil,
                  let next = afterMember() else { return nil }
            more = next
        }
        return map
    }

    private mutating func openObject() -> Bool {
        skipWhitespace()
        return next() == UInt8(ascii: "{")
    }

    private mutating func closeObjectIfEmpty() -> Bool {
        skipWhitespace()
        guard peek() == UInt8(ascii: "}") else { return false }
        position += 1
        return true
    }

    /// A member's key and its colon; the reader then stands at the value.
    private mutating func memberKey() -> String? {
        guard let key = string() else { return nil }
        skipWhitespace()
        return next() == UInt8(ascii: ":") ? key : nil
    }

    /// After a member's value: true at a comma (another member follows), false at the object's
    /// end, nil for anything else.
    private mutating func afterMember() -> Bool? {
        skipWhitespace()
        switch next() {
        case UInt8(ascii: ","): return true
        case UInt8(ascii: "}"): return false
        default: return nil
        }
    }

    /// A JSON string, its escapes resolved; nil when malformed (a raw control character, a bad
    /// escape, a lone surrogate, invalid UTF-8).
    private mutating func string() -> String? {
        skipWhitespace()
        guard next() == UInt8(ascii: "\"") else { return nil }
        let start = position
        // The common case: no escape, so the bytes are the string.
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let text = Self.text(UnsafeBufferPointer(rebasing: bytes[start..<position]))
                position += 1
                return text
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            position += 1
        }
        var utf8 = Array(bytes[start..<position])
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(validating: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let escaped = next() else { return nil }
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escaped)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"):
                    guard let scalar = unicodeEscape() else { return nil }
                    utf8.append(contentsOf: String(Character(scalar)).utf8)
                default: return nil
                }
            default:
                guard byte >= 0x20 else { return nil }
                utf8.append(byte)
            }
        }
        return nil
    }

    /// The string of UTF-8 bytes, nil when they are not valid UTF-8. ASCII (attribute names and
    /// most values) needs no validation, and `String(validating:)` costs several times more.
    private static func text(_ utf8: UnsafeBufferPointer<UInt8>) -> String? {
        if utf8.allSatisfy({ $0 < 0x80 }) { return String(decoding: utf8, as: UTF8.self) }
        return String(validating: utf8, as: UTF8.self)
    }

    /// The scalar of a `\u` escape (the reader stands after the `u`), joining a surrogate pair.
    private mutating func unicodeEscape() -> Unicode.Scalar? {
        guard let first = hexQuad() else { return nil }
        switch first {
        case 0xD800...0xDBFF:
            guard next() == UInt8(ascii: "\\"), next() == UInt8(ascii: "u"), let second = hexQuad(),
                  (0xDC00...0xDFFF).contains(second) else { return nil }
            return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
        case 0xDC00...0xDFFF:
            return nil
        default:
            return Unicode.Scalar(first)
        }
    }

    private mutating func hexQuad() -> UInt32? {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = next() else { return nil }
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): position += 1
            default: return
            }
        }
    }

    private func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func next() -> UInt8? {
        guard position < bytes.count else { return nil }
        defer { position += 1 }
        return bytes[position]
    }
}
