import Foundation
import KeychainServices
import KeychainctlCommandLine

/// `git-credential-keychain`: git's credential helper protocol over the keychain's internet
/// passwords, shaped as git's macOS helper (contrib/credential/osxkeychain) stores them, so that
/// `keychainctl find-internet-password`, git's libsecret helper through keychaind, and this helper
/// see one item. docs/credential-helpers.md has the whole mapping.
package enum GitCredentialHelper {
    package static let name = "git-credential-keychain"
    /// What `get` hands git as `state[]` when git announced the `state` capability; git sends it
    /// back with the `store` that follows, which then leaves the item alone (osxkeychain's
    /// `osxkeychain:seen=1`).
    package static let seenState = "keychain:seen=1"

    static let usage = "usage: \(name) <get|store|erase>\n"
    /// libsecret's schema for network passwords, which keychaind keeps in `kSecAttrDescription`.
    static let networkSchema = "org.gnome.keyring.NetworkPassword"

    /// Runs the helper with the arguments after the program name; returns the exit status.
    ///
    /// git appends the action to the command it was configured with, so the action is the last
    /// argument. An action other than get, store and erase is ignored, as gitcredentials(7) asks
    /// ("If a helper receives any other operation, it should silently ignore the request"), so
    /// that later versions of git can add some.
    package static func run(arguments: [String]) -> Int32 {
        let program = HelperIO.programName(default: name)
        guard let action = arguments.last else {
            HelperIO.err(usage)
            return 1
        }
        switch action {
        case "-h", "--help":
            HelperIO.out(usage)
            return 0
        case "--version":
            HelperIO.out("\(name) (swift-keychain) \(PackageVersion.current)\n")
            return 0
        case "get", "store", "erase":
            break
        default:
            return 0
        }
        do throws(HelperFailure) {
            var scanned = 0
            var lineStart = 0
            var input = try HelperIO.readInput { input in
                // Complete at the first blank line (empty, or a lone carriage return).
                defer { scanned = input.count }
                for index in scanned..<input.count where input[index] == UInt8(ascii: "\n") {
                    let length = index - lineStart
                    if length == 0 || (length == 1 && input[lineStart] == UInt8(ascii: "\r")) { return true }
                    lineStart = index + 1
                }
                return false
            }
            defer { HelperIO.wipe(&input) }
            var credential = try GitCredential(parsing: input)
            defer { credential.wipe() }
            switch action {
            case "get":
                var output = try get(credential)
                HelperIO.out(output)
                HelperIO.wipe(&output)
            case "store":
                try store(credential)
            default:
                try erase(credential)
            }
            return 0
        } catch {
            HelperIO.err("\(program): \(action): \(error.message)\n")
            return 1
        }
    }

    /// Where a request points: the keychain attributes it names.
    struct Target {
        var server: String
        var protocolCode: String
        var port: Int?
        var path: String?
        var account: String?

        /// nil for a protocol the keychain has no code for: such requests are ignored, as
        /// osxkeychain ignores them ("we don't yet handle other protocols"), so git goes on to its
        /// next helper. A request without a protocol or a host is refused: it would match every
        /// item of the keychain.
        init?(_ credential: GitCredential, action: String) throws(HelperFailure) {
            guard let name = credential.protocolName, !name.isEmpty else {
                throw HelperFailure("the request names no protocol; \(action) needs protocol and host.")
            }
            guard let code = InternetPasswords.protocolCodes[name] else { return nil }
            guard let host = credential.host, !host.isEmpty else {
                throw HelperFailure("the request names no host; \(action) needs protocol and host.")
            }
            server = host
            protocolCode = code
            port = credential.port
            path = credential.path
            account = credential.username
        }

        /// What a search matches: what the request names, nothing more (a request without a
        /// username finds the item of any account; without a path, of any path), as osxkeychain
        /// and libsecret search. The authentication type is left out, so items written by
        /// keychaind (none) and by keychainctl or osxkeychain (`dflt`) are all found.
        var searchQuery: InternetPasswords.Query {
            var query: InternetPasswords.Query = [kSecAttrServer as String: server, kSecAttrProtocol as String: protocolCode]
            if let port { query[kSecAttrPort as String] = port }
            if let path { query[kSecAttrPath as String] = path }
            if let account { query[kSecAttrAccount as String] = account }
            return query
        }

        /// The one item a store writes: this server, protocol, account, port (0 for none) and
        /// path (empty for none), the attributes keychaind gives a libsecret network password.
        var keyQuery: InternetPasswords.Query {
            [kSecAttrServer as String: server, kSecAttrProtocol as String: protocolCode,
             kSecAttrAccount as String: account ?? "", kSecAttrPort as String: port ?? 0,
             kSecAttrPath as String: path ?? ""]
        }

        /// The label libsecret's git helper gives its items: `Git: https://host[:port]/path`.
        func label(protocolName: String) -> String {
            let portText = port.map { ":\($0)" } ?? ""
            return "Git: \(protocolName)://\(server)\(portText)/\(path ?? "")"
        }
    }

    /// `get`: the first matching item as `username=` and `password=` lines (and the expiry and
    /// refresh token stored with it); nothing at all when no item matches.
    static func get(_ credential: GitCredential) throws(HelperFailure) -> [UInt8] {
        guard let target = try Target(credential, action: "get") else { return [] }
        guard let item = try InternetPasswords.find(target.searchQuery, all: false).first else { return [] }
        var secret = StoredGitSecret(data: item.data)
        defer { HelperIO.wipe(&secret.password) }
        var output: [UInt8] = []
        func line(_ key: String, _ value: [UInt8]) throws(HelperFailure) {
            // A value git would split or cut short: never hand git a mangled credential.
            guard !value.contains(UInt8(ascii: "\n")), !value.contains(0) else {
                HelperIO.wipe(&output)
                throw HelperFailure("the keychain item's \(key) holds a newline or NUL byte, which git's protocol cannot carry.")
            }
            output += Array(key.utf8) + [UInt8(ascii: "=")] + value + [UInt8(ascii: "\n")]
        }
        try line("username", Array(item.account.utf8))
        try line("password", secret.password)
        if let expiry = secret.passwordExpiryUTC { try line("password_expiry_utc", Array(expiry.utf8)) }
        if var token = secret.oauthRefreshToken {
            try line("oauth_refresh_token", token)
            HelperIO.wipe(&token)
        }
        if credential.capabilities.contains("state") {
            try line("capability[]", Array("state".utf8))
            try line("state[]", Array(seenState.utf8))
        }
        return output
    }

    /// `store`: adds the item, or replaces the data of the one that exists (add-or-update, as
    /// osxkeychain's SecItemAdd then SecItemUpdate on errSecDuplicateItem).
    static func store(_ credential: GitCredential) throws(HelperFailure) {
        // git hands back the state of the get that found this credential: it came from here.
        if credential.states.contains(seenState) { return }
        guard let target = try Target(credential, action: "store") else { return }
        guard credential.username != nil, let password = credential.password else {
            throw HelperFailure("the request names no username or no password; store keeps only whole credentials. Nothing was stored.")
        }
        let data = StoredGitSecret(password: password, passwordExpiryUTC: credential.passwordExpiryUTC,
                                   oauthRefreshToken: credential.oauthRefreshToken).data
        // Matched without the authentication type, so an item keychainctl added (`dflt`) is
        // updated rather than doubled.
        if try InternetPasswords.updateData(target.keyQuery, data: data) { return }
        var attributes = target.keyQuery
        attributes[kSecAttrLabel as String] = target.label(protocolName: credential.protocolName ?? "")
        // The kind keychaind records for libsecret's network passwords (its `xdg:schema`), which
        // git's libsecret helper stores: with it, a later store by that helper through keychaind
        // finds this item as its own and replaces it.
        attributes[kSecAttrDescription as String] = networkSchema
        do throws(HelperFailure) {
            try InternetPasswords.add(attributes, data: data)
        } catch where error.status == errSecDuplicateItem {
            // Added by another process since the update looked: update that one.
            guard try InternetPasswords.updateData(target.keyQuery, data: data) else { throw error }
        }
    }

    /// `erase`: deletes the matching items; when the request carries a password, only those
    /// whose password is that one (osxkeychain's delete_ref compares the first line of the data,
    /// so that a credential replaced meanwhile survives git rejecting the old one).
    static func erase(_ credential: GitCredential) throws(HelperFailure) {
        guard let target = try Target(credential, action: "erase") else { return }
        for var item in try InternetPasswords.find(target.searchQuery, all: true) {
            var secret = StoredGitSecret(data: item.data)
            let matches = credential.password.map { $0 == secret.password } ?? true
            HelperIO.wipe(&secret.password)
            item.data = Data()
            guard matches, let reference = item.persistentReference else { continue }
            _ = try InternetPasswords.delete(reference: reference)
        }
    }
}
