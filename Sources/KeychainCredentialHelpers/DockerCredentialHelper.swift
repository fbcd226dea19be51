import Foundation
import KeychainServices
import KeychainctlCommandLine

/// `docker-credential-keychain`: docker's credential helper protocol (docker/docker-credential-helpers,
/// credentials/credentials.go) over the keychain's internet passwords, stored as
/// docker-credential-osxkeychain stores them (osxkeychain/osxkeychain.go): label
/// `Docker Credentials`, account = username, server = the URL's host, protocol `htps` (`http`
/// for an http:// URL), port, path, authentication type `dflt`, data = the secret.
///
/// As docker's helpers do, a failure is written to standard output, where docker reads it (it
/// recognises a missing credential by the exact sentence ``notFound``), and exits 1. Other
/// failures are also written to standard error, prefixed with the program name, for a person
/// running the helper by hand; the not-found answer is not, as it is an ordinary answer.
package enum DockerCredentialHelper {
    package static let name = "docker-credential-keychain"
    /// docker-credential-helpers' `errCredentialsNotFoundMessage`, which docker matches.
    package static let notFound = "credentials not found in native keychain"
    /// docker-credential-helpers' `CredsLabel`.
    package static let label = "Docker Credentials"

    /// Runs the helper with the arguments after the program name; returns the exit status.
    package static func run(arguments: [String]) -> Int32 {
        let program = HelperIO.programName(default: name)
        let usage = "Usage: \(program) <store|get|erase|list|version>\n"
        guard arguments.count == 1 else {
            HelperIO.out(usage)
            return 1
        }
        let action = arguments[0]
        do throws(HelperFailure) {
            switch action {
            case "--version", "-v", "version":
                HelperIO.out("\(program) (swift-keychain) v\(PackageVersion.current)\n")
            case "--help", "-h":
                HelperIO.out(usage)
            case "store":
                try store()
            case "get":
                HelperIO.out(try get())
            case "erase":
                try erase()
            case "list":
                HelperIO.out(try list())
            default:
                throw HelperFailure("\(program): unknown action: \(GitCredential.printable(action))")
            }
            return 0
        } catch {
            HelperIO.out(error.message + "\n")
            if error.message != notFound {
                HelperIO.err(error.message.hasPrefix(program + ":") ? error.message + "\n" : "\(program): \(action): \(error.message)\n")
            }
            return 1
        }
    }

    /// A registry as docker names it: `https://index.docker.io/v1/`, `registry.example.com:5000`.
    struct Registry: Equatable {
        var secure: Bool
        var host: String
        var port: Int?
        var path: String

        /// Parsed as docker-credential-helpers' `registryurl.Parse` parses it, with Go's rules
        /// (``DockerServerURL``): only http and https (or no scheme) are accepted; a host is
        /// required; the query and fragment are dropped.
        init(_ text: String) throws(HelperFailure) {
            let url = try DockerServerURL(text)
            secure = url.scheme != "http"
            host = url.host
            port = url.port
            path = url.path
        }

        init(item: InternetPasswords.Item) {
            secure = item.protocolCode != (kSecAttrProtocolHTTP as String)
            host = item.server
            port = item.port == 0 ? nil : item.port
            path = item.path
        }

        /// What selects this registry's items: as osxkeychain's helper, port and path only when
        /// the URL has them; and, unlike it, only items labelled as docker's, so that neither a
        /// `get` nor an `erase` ever reaches a credential docker did not store (git's, for the
        /// same host).
        var query: InternetPasswords.Query {
            var query: InternetPasswords.Query = [
                kSecAttrLabel as String: DockerCredentialHelper.label,
                kSecAttrServer as String: host,
                kSecAttrProtocol as String: secure ? kSecAttrProtocolHTTPS : kSecAttrProtocolHTTP,
            ]
            if let port { query[kSecAttrPort as String] = port }
            if !path.isEmpty { query[kSecAttrPath as String] = path }
            return query
        }

        /// The URL `list` reports, as osxkeychain's helper rebuilds it (Go's url.URL.String()).
        var url: String {
            // Go's url.URL.String() writes an IPv6 zone's '%' as "%25", as it was read.
            let hostPart = host.contains(":") ? "[\(host.replacingOccurrences(of: "%", with: "%25"))]" : host
            var text = (secure ? "https://" : "http://") + hostPart + (port.map { ":\($0)" } ?? "")
            if !path.isEmpty {
                let escaped = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
                text += escaped.hasPrefix("/") ? escaped : "/" + escaped
            }
            return text
        }
    }

    /// `store`: a JSON object `{"ServerURL", "Username", "Secret"}` on standard input (names
    /// matched without regard to case, as Go's encoding/json does). Replaces the registry's
    /// credentials, as osxkeychain's helper does (delete, then add).
    static func store() throws(HelperFailure) {
        var input = try HelperIO.readInput()
        defer { HelperIO.wipe(&input) }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(input), options: [])
        } catch {
            throw HelperFailure("the input is not a JSON object of ServerURL, Username and Secret.")
        }
        guard let fields = object as? [String: Any] else {
            throw HelperFailure("the input is not a JSON object of ServerURL, Username and Secret.")
        }
        let serverURL = try string(fields, "ServerURL")
        let username = try string(fields, "Username")
        let secret = try string(fields, "Secret")
        guard !serverURL.isEmpty else { throw HelperFailure("no credentials server URL") }
        guard !username.isEmpty else { throw HelperFailure("no credentials username") }
        guard !serverURL.utf8.contains(0), !username.utf8.contains(0) else {
            throw HelperFailure("the server URL or the username holds a NUL character.")
        }
        let registry = try Registry(serverURL)

        for item in try InternetPasswords.find(registry.query, all: true) {
            if let reference = item.persistentReference { _ = try InternetPasswords.delete(reference: reference) }
        }
        var attributes = registry.query
        attributes[kSecAttrPath as String] = registry.path
        attributes[kSecAttrAccount as String] = username
        // Set by osxkeychain's helper so that its releases before 0.9, which searched for it,
        // find the item too.
        attributes[kSecAttrAuthenticationType as String] = kSecAttrAuthenticationTypeDefault
        do throws(HelperFailure) {
            try InternetPasswords.add(attributes, data: Data(secret.utf8))
        } catch where error.status == errSecDuplicateItem {
            // An item with this key that is not docker's (keychainctl add-internet-password, say):
            // osxkeychain's helper would have deleted it before adding; take it over instead.
            var key = attributes
            key[kSecAttrLabel as String] = nil
            key[kSecAttrPort as String] = registry.port ?? 0
            guard try InternetPasswords.update(key, attributes: [kSecAttrLabel as String: label, kSecValueData as String: Data(secret.utf8)])
            else { throw error }
        }
    }

    /// `get`: the server URL on standard input; `{"ServerURL","Username","Secret"}` on standard output.
    static func get() throws(HelperFailure) -> String {
        let serverURL = try readServerURL()
        let registry = try Registry(serverURL)
        guard let item = try InternetPasswords.find(registry.query, all: false).first else {
            throw HelperFailure(notFound)
        }
        // In the order of the fields of credentials.go's Credentials, as Go writes them.
        let fields = [("ServerURL", serverURL), ("Username", item.account), ("Secret", String(decoding: item.data, as: UTF8.self))]
        var parts: [String] = []
        for (name, value) in fields { parts.append("\"\(name)\":" + (try json(value))) }
        return "{" + parts.joined(separator: ",") + "}\n"
    }

    /// `erase`: the server URL on standard input; deletes its credentials.
    static func erase() throws(HelperFailure) {
        let registry = try Registry(try readServerURL())
        let items = try InternetPasswords.find(registry.query, all: true)
        guard !items.isEmpty else { throw HelperFailure(notFound) }
        for item in items {
            if let reference = item.persistentReference { _ = try InternetPasswords.delete(reference: reference) }
        }
    }

    /// `list`: `{"url": "username", …}` of every credential docker stored.
    static func list() throws(HelperFailure) -> String {
        var accounts: [String: String] = [:]
        for item in try InternetPasswords.find([kSecAttrLabel as String: label], all: true) {
            accounts[Registry(item: item).url] = item.account
        }
        return try json(accounts) + "\n"
    }

    /// The server URL `get` and `erase` read: standard input, its lines joined and its
    /// surrounding white space trimmed, as credentials.go reads it (`strings.TrimSpace`: the
    /// characters of Unicode's White_Space property, not Foundation's wider set, which also
    /// trims a zero-width space that Go keeps as part of the host).
    static func readServerURL() throws(HelperFailure) -> String {
        let input = try HelperIO.readInput()
        guard let text = String(validating: input, as: UTF8.self) else {
            throw HelperFailure("the server URL is not UTF-8 text.")
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.allSatisfy({ $0.utf8.count <= HelperLimits.valueBytes }) else {
            throw HelperFailure("a line of the input is longer than \(HelperLimits.valueBytes) bytes.")
        }
        let joined = lines.map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }.joined()
        let url = trimmingWhiteSpace(joined)
        guard !url.isEmpty else { throw HelperFailure("no credentials server URL") }
        guard !url.utf8.contains(0) else { throw HelperFailure("the server URL holds a NUL character.") }
        return url
    }

    private static func trimmingWhiteSpace(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }

    /// A string field of the stored JSON, looked up as Go's encoding/json does (an exact name
    /// first, else any spelling of it); null or absent is empty.
    private static func string(_ fields: [String: Any], _ name: String) throws(HelperFailure) -> String {
        let value = fields[name] ?? fields.first { $0.key.lowercased() == name.lowercased() }?.value
        switch value {
        case nil, is NSNull:
            return ""
        case let text as String:
            guard text.utf8.count <= HelperLimits.valueBytes else {
                throw HelperFailure("\(name) is longer than \(HelperLimits.valueBytes) bytes.")
            }
            return text
        default:
            throw HelperFailure("\(name) is not a string.")
        }
    }

    /// `value` as JSON, a map's keys sorted as Go's encoding/json sorts them.
    private static func json<T: Encodable>(_ value: T) throws(HelperFailure) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { throw HelperFailure("the answer could not be written as JSON.") }
        return String(decoding: data, as: UTF8.self)
    }
}
