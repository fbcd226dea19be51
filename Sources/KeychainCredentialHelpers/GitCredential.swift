import Foundation

/// What git sends a credential helper: `key=value` lines up to a blank line or the end of input
/// (gitcredentials(7), git-credential(1)).
///
/// Read as git and git's own helpers read it (contrib/credential/osxkeychain and libsecret): the
/// value is everything after the first `=`; a trailing carriage return is dropped; `host` may end
/// in `:port`; unknown keys (`wwwauth[]`, `authtype`, `ephemeral`, keys of later versions) are
/// ignored; `url=` stands for its parts and, as in git, replaces what came before it. Unlike
/// osxkeychain it never echoes a bad line back: it may hold a password.
struct GitCredential {
    var protocolName: String?
    var host: String?
    var port: Int?
    var path: String?
    var username: String?
    var password: [UInt8]?
    var passwordExpiryUTC: String?
    var oauthRefreshToken: [UInt8]?
    /// The `capability[]` values git announced (`authtype`, `state`).
    var capabilities: [String] = []
    /// The `state[]` values git hands back from an earlier `get`.
    var states: [String] = []

    init() {}

    /// Parses a request; a line without `=`, a NUL byte, a value over
    /// ``HelperLimits/valueBytes`` or text that is not UTF-8 where text is expected is refused.
    init(parsing input: [UInt8]) throws(HelperFailure) {
        var lineStart = input.startIndex
        var lineNumber = 0
        while lineStart < input.endIndex {
            let newline = input[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? input.endIndex
            var line = input[lineStart..<newline]
            lineStart = newline == input.endIndex ? newline : newline + 1
            lineNumber += 1
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            if line.isEmpty { break }
            guard !line.contains(0) else { throw HelperFailure("line \(lineNumber) of the input holds a NUL byte.") }
            guard let equals = line.firstIndex(of: UInt8(ascii: "=")) else {
                throw HelperFailure("line \(lineNumber) of the input is not of the form key=value.")
            }
            let key = String(decoding: line[..<equals], as: UTF8.self)
            let value = Array(line[(equals + 1)...])
            guard value.count <= HelperLimits.valueBytes else {
                throw HelperFailure("the value of \(Self.printable(key)) is longer than \(HelperLimits.valueBytes) bytes.")
            }
            try apply(key: key, value: value)
        }
        try splitPort()
    }

    private mutating func apply(key: String, value: [UInt8]) throws(HelperFailure) {
        func text() throws(HelperFailure) -> String {
            guard let text = String(validating: value, as: UTF8.self) else {
                throw HelperFailure("the value of \(key) is not UTF-8 text.")
            }
            return text
        }
        switch key {
        case "protocol": protocolName = try text()
        case "host": host = try text()
        case "path": path = try text()
        case "username": username = try text()
        case "password": password = value
        case "password_expiry_utc": passwordExpiryUTC = try text()
        case "oauth_refresh_token": oauthRefreshToken = value
        case "capability[]": capabilities.append(try text())
        case "state[]": states.append(try text())
        case "url": try apply(url: try text())
        default: break  // forward compatibility: later versions of git send more
        }
    }

    /// `url=`: as in git (credential_from_url), the URL's parts replace everything read so far.
    private mutating func apply(url: String) throws(HelperFailure) {
        guard let components = URLComponents(string: url), let scheme = components.scheme, !scheme.isEmpty else {
            throw HelperFailure("the value of url is not a URL.")
        }
        let capabilities = self.capabilities, states = self.states
        wipe()
        self = GitCredential()
        self.capabilities = capabilities
        self.states = states
        protocolName = scheme.lowercased()
        if let name = components.percentEncodedHost, !name.isEmpty {
            let decoded = name.removingPercentEncoding ?? name
            host = components.port.map { "\(decoded):\($0)" } ?? decoded
        }
        let path = components.path.drop { $0 == "/" }
        if !path.isEmpty { self.path = String(path) }
        username = components.user
        password = components.password.map { Array($0.utf8) }
    }

    /// `host=example.com:8443` names the port too, as git writes it (`[::1]:8443` for IPv6).
    private mutating func splitPort() throws(HelperFailure) {
        guard let value = host else { return }
        let hostPart: Substring
        let portPart: Substring?
        if value.hasPrefix("["), let close = value.firstIndex(of: "]") {
            hostPart = value[...close]
            let rest = value[value.index(after: close)...]
            guard rest.isEmpty || rest.hasPrefix(":") else { throw HelperFailure("the value of host is not a host name.") }
            portPart = rest.isEmpty ? nil : rest.dropFirst()
        } else if let colon = value.lastIndex(of: ":") {
            hostPart = value[..<colon]
            portPart = value[value.index(after: colon)...]
        } else {
            hostPart = value[...]
            portPart = nil
        }
        if let portPart {
            guard portPart.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                  let number = Int(portPart), (1...65535).contains(number) else {
                throw HelperFailure("the port in the value of host is not a number from 1 to 65535.")
            }
            port = number
        }
        host = hostPart.isEmpty ? nil : String(hostPart)
    }

    /// Overwrites the secrets it holds.
    mutating func wipe() {
        if password != nil { HelperIO.wipe(&password!) }
        if oauthRefreshToken != nil { HelperIO.wipe(&oauthRefreshToken!) }
    }

    /// A key as it may appear in a message: short, and printable ASCII only.
    static func printable(_ key: String) -> String {
        let kept = key.unicodeScalars.prefix(40).map { (0x20..<0x7f).contains($0.value) ? Character($0) : "?" }
        return String(kept)
    }
}

/// The data of a git credential's keychain item: the password, then, on lines of their own,
/// `password_expiry_utc=…` and `oauth_refresh_token=…` when git gave them. This is the layout
/// git's osxkeychain and libsecret helpers write (contrib/credential/osxkeychain/
/// git-credential-osxkeychain.c, add_internet_password; libsecret's keyring_store), so an item
/// any of them wrote reads back the same here.
struct StoredGitSecret {
    var password: [UInt8]
    var passwordExpiryUTC: String?
    var oauthRefreshToken: [UInt8]?

    init(password: [UInt8], passwordExpiryUTC: String?, oauthRefreshToken: [UInt8]?) {
        self.password = password
        self.passwordExpiryUTC = passwordExpiryUTC
        self.oauthRefreshToken = oauthRefreshToken
    }

    init(data: Data) {
        let lines = Array(data).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        password = lines.first.map(Array.init) ?? []
        for line in lines.dropFirst() {
            if line.starts(with: Self.expiryPrefix) {
                passwordExpiryUTC = String(decoding: line.dropFirst(Self.expiryPrefix.count), as: UTF8.self)
            } else if line.starts(with: Self.refreshPrefix) {
                oauthRefreshToken = Array(line.dropFirst(Self.refreshPrefix.count))
            }
        }
    }

    static let expiryPrefix = Array("password_expiry_utc=".utf8)
    static let refreshPrefix = Array("oauth_refresh_token=".utf8)

    var data: Data {
        var bytes = password
        if let passwordExpiryUTC { bytes += [UInt8(ascii: "\n")] + Self.expiryPrefix + Array(passwordExpiryUTC.utf8) }
        if let oauthRefreshToken { bytes += [UInt8(ascii: "\n")] + Self.refreshPrefix + oauthRefreshToken }
        defer { HelperIO.wipe(&bytes) }
        return Data(bytes)
    }
}
