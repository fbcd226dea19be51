/// The few string operations the engine needs, written on the standard library alone, so that
/// the engine builds on FoundationEssentials: Foundation proper (its NSString bridge, its
/// formatting and its ICU data) would add megabytes and start-up work to every program that
/// links the engine, keychainctl's hand-read commands among them.
enum PlainText {
    /// `bytes` as lower-case hexadecimal, two digits a byte.
    static func lowercaseHex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// `text` without leading and trailing spaces and tabs (what Foundation's
    /// `trimmingCharacters(in: .whitespaces)` removes: the space separators and the tab).
    static func trimmingSpaces(_ text: some StringProtocol) -> String {
        let scalars = text.unicodeScalars
        func isSpace(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator
        }
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
              let last = scalars.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }

    /// The folder part of a slash-separated path, as `NSString.deletingLastPathComponent` gives
    /// it for the absolute, normalised paths the engine walks: `/a/b` is `/a`, `/a` is `/`, `/`
    /// stays `/`, and a path without a slash has none (the empty string).
    static func deletingLastPathComponent(_ path: String) -> String {
        var path = Substring(path)
        while path.count > 1 && path.hasSuffix("/") { path = path.dropLast() }
        guard let slash = path.lastIndex(of: "/") else { return "" }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }
}
