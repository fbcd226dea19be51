import Foundation
import KeychainServices

/// The two classes of password item the item subcommands work on.
enum PasswordKind: Sendable {
    case generic, internet

    var classCode: String { self == .generic ? "genp" : "inet" }
}

/// The attributes given on a command line, named as Keychain Services names them.
///
/// `security` maps its flags to attributes this way: `-a` account, `-s` service (generic) or
/// server (internet), `-l` label, `-D` kind (`desc`), `-j` comment, `-G` generic attribute,
/// `-c` creator and `-C` type (four-character codes stored as numbers), `-d` security domain,
/// `-p` path, `-P` port, `-r` protocol, `-t` authentication type.
struct PasswordAttributes: Sendable {
    var kind: PasswordKind
    var account: String?
    var service: String?
    var server: String?
    var label: String?
    var description: String?
    var comment: String?
    var generic: String?
    var creator: FourCharCode?
    var type: FourCharCode?
    var securityDomain: String?
    var path: String?
    var port: Int?
    var protocolCode: FourCharCode?
    var authenticationType: FourCharCode?

    init(kind: PasswordKind) { self.kind = kind }

    /// True when the attributes name an item's primary key completely. `security` then searches
    /// on the key alone, so that `-U` can change the other attributes (generic: account and
    /// service; internet: account, domain, server, protocol, authentication type, port, path).
    var namesPrimaryKey: Bool {
        switch kind {
        case .generic:
            return account != nil && service != nil
        case .internet:
            return account != nil && securityDomain != nil && server != nil && protocolCode != nil
                && authenticationType != nil && (port ?? 0) != 0 && path != nil
        }
    }

    /// Every attribute that was given, as a SecItem dictionary (class included).
    var allAttributes: [String: Any] {
        var dictionary: [String: Any] = [kSecClass as String: kind.classCode]
        func set(_ key: CFString, _ value: Any?) {
            if let value { dictionary[key as String] = value }
        }
        set(kSecAttrAccount, account)
        set(kSecAttrLabel, label)
        set(kSecAttrDescription, description)
        set(kSecAttrComment, comment)
        set(kSecAttrCreator, creator.map { NSNumber(value: $0.number) })
        set(kSecAttrType, type.map { NSNumber(value: $0.number) })
        switch kind {
        case .generic:
            set(kSecAttrService, service)
            set(kSecAttrGeneric, generic.map { Data($0.utf8) })
        case .internet:
            set(kSecAttrServer, server)
            set(kSecAttrSecurityDomain, securityDomain)
            set(kSecAttrPath, path)
            if let port, port != 0 { dictionary[kSecAttrPort as String] = NSNumber(value: port) }
            set(kSecAttrProtocol, protocolCode?.text)
            set(kSecAttrAuthenticationType, authenticationType?.text)
        }
        return dictionary
    }

    /// The attributes a find, delete or update searches on, following `security`: the primary
    /// key alone when it is complete, otherwise everything given.
    var searchAttributes: [String: Any] {
        guard namesPrimaryKey else { return allAttributes }
        var dictionary: [String: Any] = [kSecClass as String: kind.classCode]
        let all = allAttributes
        let keys: [CFString] = kind == .generic
            ? [kSecAttrAccount, kSecAttrService]
            : [kSecAttrAccount, kSecAttrSecurityDomain, kSecAttrServer, kSecAttrProtocol,
               kSecAttrAuthenticationType, kSecAttrPort, kSecAttrPath]
        for key in keys { dictionary[key as String] = all[key as String] }
        return dictionary
    }
}
