#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A docker server URL cut into the parts the credential is keyed by, the way docker itself
/// reads it: docker and docker-credential-osxkeychain (registryurl/parse.go) parse with Go's
/// `net/url.Parse`, so the host this returns is the host docker connects to. Where a parser
/// of other rules would read another host from the same text (Foundation's `URLComponents`
/// takes `https://evil.example\@registry.example.com` for registry.example.com; a WHATWG
/// parser, for evil.example), the text is refused, as Go refuses it.
///
/// The split follows Go's order: the fragment (`#`) is cut off first, then the scheme, then the
/// query (`?`); the authority runs from `//` to the next `/`. The authority is held to less
/// than Go allows, to what a registry's address is (docs/credential-helpers.md, "Server URLs"):
/// no user information (Go accepts `user@host` and keys the credential by the host, a way to
/// make one URL look like another), no backslash, white space or invisible character, a host
/// of letters, digits, `-`, `.`, `_`, `~` and non-ASCII text, or an IPv6 literal in brackets,
/// and a port of digits.
struct DockerServerURL: Equatable {
    /// Lowercased; empty when the text has none (docker passes bare hosts).
    var scheme: String
    /// Without brackets for an IPv6 literal; percent escapes decoded.
    var host: String
    var port: Int?
    /// Percent escapes decoded; empty when the URL has no path.
    var path: String

    init(_ text: String) throws(HelperFailure) {
        // registryurl.Parse: a text without a scheme is read as `//text`, so that a bare host is
        // a host, not a path.
        let url = text.contains("://") || text.hasPrefix("//") ? text : "//" + text
        // Go refuses an ASCII control character anywhere.
        guard !url.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else {
            throw HelperFailure("the server URL holds a control character.")
        }
        let (beforeFragment, fragment) = Self.cut(Substring(url), at: "#")
        if let fragment { _ = try Self.percentDecoded(fragment, what: "fragment") }
        let (scheme, afterScheme) = try Self.scheme(beforeFragment)
        let rest = Self.cut(afterScheme, at: "?").before

        var authority: Substring = ""
        var pathText: Substring = ""
        if rest.hasPrefix("//") {
            let afterSlashes = rest.dropFirst(2)
            let end = afterSlashes.firstIndex(of: "/") ?? afterSlashes.endIndex
            authority = afterSlashes[..<end]
            pathText = afterSlashes[end...]
        }
        guard scheme.isEmpty || scheme == "http" || scheme == "https" else {
            throw HelperFailure("unsupported scheme: \(GitCredential.printable(scheme))")
        }
        let (host, port) = try Self.hostAndPort(authority)
        self.scheme = scheme
        self.host = host
        self.port = port
        path = try Self.percentDecoded(pathText, what: "path")
    }

    /// `text` before the first `separator`, and after it (nil when there is none).
    private static func cut(_ text: Substring, at separator: Character) -> (before: Substring, after: Substring?) {
        guard let index = text.firstIndex(of: separator) else { return (text, nil) }
        return (text[..<index], text[text.index(after: index)...])
    }

    /// The scheme and what follows its colon, by Go's rule: a letter, then letters, digits, `+`,
    /// `-` or `.`, then `:`. Any other text has no scheme; a leading colon is an error.
    private static func scheme(_ text: Substring) throws(HelperFailure) -> (String, Substring) {
        for (offset, byte) in text.utf8.enumerated() {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
                continue
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
                if offset == 0 { return ("", text) }
            case UInt8(ascii: ":"):
                guard offset > 0 else { throw HelperFailure("missing protocol scheme") }
                let colon = text.utf8.index(text.startIndex, offsetBy: offset)
                return (String(text[..<colon]).lowercased(), text[text.index(after: colon)...])
            default:
                return ("", text)
            }
        }
        return ("", text)
    }

    /// The host and port of an authority, or the reason it is refused.
    private static func hostAndPort(_ authority: Substring) throws(HelperFailure) -> (String, Int?) {
        if authority.contains("@") {
            throw HelperFailure("the server URL holds user information (text and '@' before the host); a registry's address has none.")
        }
        if authority.contains("\\") {
            throw HelperFailure("the host of the server URL holds a backslash.")
        }
        if authority.unicodeScalars.contains(where: isBlankOrInvisible) {
            throw HelperFailure("the host of the server URL holds white space or an invisible character.")
        }
        let hostText: Substring
        let portText: Substring
        if authority.hasPrefix("[") {
            guard let close = authority.lastIndex(of: "]") else { throw HelperFailure("missing ']' in host") }
            hostText = authority[authority.index(after: authority.startIndex)..<close]
            portText = authority[authority.index(after: close)...]
        } else if let colon = authority.lastIndex(of: ":") {
            hostText = authority[..<colon]
            portText = authority[colon...]
        } else {
            hostText = authority
            portText = ""
        }
        let port = try Self.port(portText)
        let host = authority.hasPrefix("[") ? try ipv6Literal(hostText) : try hostName(hostText)
        guard !host.isEmpty else { throw HelperFailure("no hostname in URL") }
        return (host, port)
    }

    /// Go's `validOptionalPort` (empty, or `:` and digits; `host:` has no port), and a port
    /// number a connection can use.
    private static func port(_ text: Substring) throws(HelperFailure) -> Int? {
        guard !text.isEmpty else { return nil }
        let digits = text.dropFirst()
        guard text.first == ":", digits.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            throw HelperFailure("the port of the server URL is not a number.")
        }
        guard !digits.isEmpty else { return nil }
        guard digits.count <= 5, let number = Int(digits), (1...65535).contains(number) else {
            throw HelperFailure("the port of the server URL is out of range.")
        }
        return number
    }

    /// A registered name: ASCII letters, digits and `-._~`, and non-ASCII text, raw or percent
    /// escaped (Go lets an escape stand only for a non-ASCII byte).
    private static func hostName(_ text: Substring) throws(HelperFailure) -> String {
        for byte in text.utf8 where byte < 0x80 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "%"):
                continue
            default:
                throw HelperFailure("invalid character \"\(GitCredential.printable(String(UnicodeScalar(byte))))\" in host name")
            }
        }
        let host = try percentDecoded(text, what: "host", nonASCIIOnly: true)
        guard !host.unicodeScalars.contains(where: isBlankOrInvisible) else {
            throw HelperFailure("the host of the server URL holds white space or an invisible character.")
        }
        return host
    }

    /// The text between brackets: an IPv6 address, and optionally `%25` and a zone of letters,
    /// digits and `-._~` (RFC 6874).
    private static func ipv6Literal(_ text: Substring) throws(HelperFailure) -> String {
        var address = text
        var zone: Substring?
        if let percent = text.firstIndex(of: "%") {
            guard text[percent...].hasPrefix("%25") else {
                throw HelperFailure("the IPv6 zone of the server URL does not start with '%25'.")
            }
            address = text[..<percent]
            zone = text[percent...].dropFirst(3)
        }
        var binary = in6_addr()
        guard !address.isEmpty, inet_pton(AF_INET6, String(address), &binary) == 1 else {
            throw HelperFailure("the host of the server URL is in brackets but is not an IPv6 address.")
        }
        guard let zone else { return String(address) }
        guard !zone.isEmpty, zone.utf8.allSatisfy({ isUnreserved($0) }) else {
            throw HelperFailure("the IPv6 zone of the server URL holds a character a zone cannot.")
        }
        return String(address) + "%" + String(zone)
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// White space, a control or a formatting character (zero-width joiners, direction marks):
    /// nothing a registry's name holds, and what makes two names look alike.
    private static func isBlankOrInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator, .unassigned, .surrogate, .privateUse:
            return true
        default:
            return scalar.properties.isWhitespace
        }
    }

    /// `text` with its `%XX` escapes decoded, as Go's `unescape` checks them: a `%` not followed
    /// by two hexadecimal digits is refused; with `nonASCIIOnly`, so is an escape of an ASCII
    /// byte. The result must be UTF-8, as the keychain keeps text.
    private static func percentDecoded(_ text: Substring, what: String, nonASCIIOnly: Bool = false) throws(HelperFailure) -> String {
        let bytes = Array(text.utf8)
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "%") else {
                decoded.append(bytes[index])
                index += 1
                continue
            }
            guard index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) else {
                throw HelperFailure("the \(what) of the server URL holds a '%' that is not an escape.")
            }
            if nonASCIIOnly && high < 8 {
                throw HelperFailure("the \(what) of the server URL escapes an ASCII character.")
            }
            decoded.append(high << 4 | low)
            index += 3
        }
        guard let result = String(validating: decoded, as: UTF8.self) else {
            throw HelperFailure("the \(what) of the server URL is not UTF-8 once its escapes are decoded.")
        }
        return result
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
