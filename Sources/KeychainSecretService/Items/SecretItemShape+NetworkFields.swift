import KeychainStore

/// The attributes of libsecret's network-password schema, as an internet password holds them.
package struct NetworkFields: Equatable, Sendable {
    var user: String?
    var server: String
    /// Apple's four-character protocol code (`htps` for `https`).
    var protocolCode: String?
    var port: Int?
    var object: String?
    var domain: String?
    var authType: String?
    /// The `xdg:schema` the client gave, if any (kept in `desc`, so it comes back).
    var namedSchema: String?

    /// The schema's attribute names.
    enum Name {
        static let user = "user"
        static let server = "server"
        static let `protocol` = "protocol"
        static let port = "port"
        static let object = "object"
        static let domain = "domain"
        static let authType = "authtype"
    }

    private static let names: Set<String> = [Name.user, Name.server, Name.protocol, Name.port, Name.object, Name.domain,
                                             Name.authType, SecretItemShape.schemaAttribute]

    /// Secret Service protocol names and Apple's codes for them (`kSecAttrProtocol…`).
    static let protocolCodes: [String: String] = [
        "http": "http", "https": "htps", "ftp": "ftp ", "ftps": "ftps", "ssh": "ssh ", "sftp": "ssh ",
        "smtp": "smtp", "imap": "imap", "imaps": "imps", "pop3": "pop3", "pop3s": "pops", "ldap": "ldap",
        "ldaps": "ldps", "smb": "smb ", "irc": "irc ", "ircs": "ircs", "telnet": "teln", "nntp": "nntp",
        "nntps": "ntps", "socks": "sox ", "afp": "afp ", "rtsp": "rtsp", "ipp": "ipp ",
    ]
    /// The reverse, with `ssh ` read back as `ssh`.
    static let protocolNames: [String: String] = {
        var names: [String: String] = [:]
        for (name, code) in protocolCodes where name != "sftp" { names[code] = name }
        return names
    }()

    /// The fields of an attribute set that is exactly a network password (a server, only the
    /// schema's names, a known protocol, a decimal port), or nil.
    init?(_ attributes: [String: String]) {
        guard let server = attributes[Name.server], attributes.keys.allSatisfy(Self.names.contains) else { return nil }
        if let schema = attributes[SecretItemShape.schemaAttribute], !SecretItemShape.networkSchemas.contains(schema) { return nil }
        self.server = server
        self.user = attributes[Name.user]
        if let name = attributes[Name.protocol] {
            guard let code = Self.protocolCodes[name], Self.protocolNames[code] == name else { return nil }
            self.protocolCode = code
        }
        if let text = attributes[Name.port] {
            guard let port = Int(text), String(port) == text, (1...65535).contains(port) else { return nil }
            self.port = port
        }
        // Empty values would read back as absent: such a set is kept whole instead.
        for name in [Name.user, Name.object, Name.domain, Name.authType] where attributes[name]?.isEmpty == true { return nil }
        if attributes[Name.authType] == Self.defaultAuthType { return nil }
        self.object = attributes[Name.object]
        self.domain = attributes[Name.domain]
        self.authType = attributes[Name.authType]
        self.namedSchema = attributes[SecretItemShape.schemaAttribute]
    }

    /// The Secret Service attributes of an internet password's keychain attributes.
    static func attributes(of item: [String: AttributeValue]) -> [String: String] {
        var attributes: [String: String] = [:]
        attributes[Name.server] = item[AttributeName.server]?.text ?? ""
        if let user = item[AttributeName.account]?.text, !user.isEmpty { attributes[Name.user] = user }
        if let code = item[AttributeName.protocol]?.fourCharacterCode, let name = protocolNames[code] { attributes[Name.protocol] = name }
        if let port = item[AttributeName.port]?.integerValue, port != 0 { attributes[Name.port] = String(port) }
        if let object = item[AttributeName.path]?.text, !object.isEmpty { attributes[Name.object] = object }
        if let domain = item[AttributeName.securityDomain]?.text, !domain.isEmpty { attributes[Name.domain] = domain }
        if let type = item[AttributeName.authenticationType]?.text, !type.isEmpty, type != defaultAuthType { attributes[Name.authType] = type }
        if let kind = item[AttributeName.description]?.text, SecretItemShape.networkSchemas.contains(kind) {
            attributes[SecretItemShape.schemaAttribute] = kind
        }
        return attributes
    }

    /// Apple's code for the default authentication type, which an attribute set leaves out.
    static let defaultAuthType = "dflt"

    /// Index filters for internet passwords, or nil when no internet password can match (the
    /// search names an attribute the network schema does not have, or a protocol it cannot hold).
    static func searchFilters(_ search: [String: String]) -> [String: AttributeValue]? {
        var filters: [String: AttributeValue] = [:]
        for (name, value) in search {
            switch name {
            case Name.server: filters[AttributeName.server] = .string(value)
            case Name.user: filters[AttributeName.account] = .string(value)
            case Name.protocol:
                guard let code = protocolCodes[value], protocolNames[code] == value else { return nil }
                filters[AttributeName.protocol] = .string(code)
            case Name.port:
                guard let port = Int64(value), String(port) == value else { return nil }
                filters[AttributeName.port] = .integer(port)
            case Name.object: filters[AttributeName.path] = .string(value)
            case Name.domain: filters[AttributeName.securityDomain] = .string(value)
            case Name.authType: filters[AttributeName.authenticationType] = .string(value)
            case SecretItemShape.schemaAttribute:
                guard SecretItemShape.networkSchemas.contains(value) else { return nil }
            default:
                return nil
            }
        }
        return filters
    }

    var keychainAttributes: [String: AttributeValue] {
        var item: [String: AttributeValue] = [AttributeName.server: .string(server), AttributeName.account: .string(user ?? "")]
        if let protocolCode { item[AttributeName.protocol] = .string(protocolCode) }
        item[AttributeName.port] = .integer(Int64(port ?? 0))
        item[AttributeName.path] = .string(object ?? "")
        item[AttributeName.securityDomain] = .string(domain ?? "")
        if let authType { item[AttributeName.authenticationType] = .string(authType) }
        if let namedSchema { item[AttributeName.description] = .string(namedSchema) }
        return item
    }
}
