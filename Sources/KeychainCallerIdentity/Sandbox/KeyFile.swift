/// The desktop-entry style key file Flatpak writes `.flatpak-info` in (`[Group]` headers,
/// `key=value` lines, `#` comments), read as GLib's key file parser reads it, so that this
/// reader and the portal's agree on what a file says: a file GLib would refuse is refused.
struct KeyFile: Equatable {
    /// Why a key file was refused.
    enum Failure: Error, Equatable {
        case notUTF8
        case entryOutsideGroup(line: Int)
        case malformedLine(line: Int)
        case invalidEscape(line: Int)
    }

    private var groups: [String: [String: String]] = [:]

    init(parsing bytes: [UInt8]) throws(Failure) {
        guard Text.validUTF8(bytes) != nil else { throw .notUTF8 }
        var group: String?
        // Lines are split as bytes: as a Swift String, "\r\n" is one character, not a line end.
        for (offset, rawBytes) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let number = offset + 1
            var lineBytes = rawBytes[...]
            if lineBytes.last == UInt8(ascii: "\r") { lineBytes = lineBytes.dropLast() }
            let text = String(decoding: lineBytes, as: UTF8.self)
            let line = text[...].drop { $0 == " " || $0 == "\t" }
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]"), line.count > 2 else { throw .malformedLine(line: number) }
                let name = line.dropFirst().dropLast()
                guard !name.contains("[") && !name.contains("]") && !name.contains(where: \.isASCIIControl) else {
                    throw .malformedLine(line: number)
                }
                group = String(name)
                if groups[String(name)] == nil { groups[String(name)] = [:] }
                continue
            }
            guard let group else { throw .entryOutsideGroup(line: number) }
            guard let equals = line.firstIndex(of: "=") else { throw .malformedLine(line: number) }
            let key = line[..<equals].trimmingSpaces
            guard !key.isEmpty, !key.contains(where: \.isASCIIControl) else { throw .malformedLine(line: number) }
            let value = try Self.unescape(line[line.index(after: equals)...].trimmingSpaces, line: number)
            // A repeated key: the last one wins, as in GLib.
            groups[group, default: [:]][String(key)] = value
        }
    }

    func value(_ key: String, in group: String) -> String? { groups[group]?[key] }

    func hasGroup(_ group: String) -> Bool { groups[group] != nil }

    /// GLib's string escapes: `\s`, `\n`, `\t`, `\r`, `\\`; any other is an error.
    private static func unescape(_ value: Substring, line: Int) throws(Failure) -> String {
        guard value.contains("\\") else { return String(value) }
        var result = ""
        var escaping = false
        for character in value {
            if escaping {
                switch character {
                case "s": result.append(" ")
                case "n": result.append("\n")
                case "t": result.append("\t")
                case "r": result.append("\r")
                case "\\": result.append("\\")
                default: throw .invalidEscape(line: line)
                }
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                result.append(character)
            }
        }
        guard !escaping else { throw .invalidEscape(line: line) }
        return result
    }
}

extension Character {
    var isASCIIControl: Bool { unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}
