import ArgumentParser
import KeychainctlCommandLine

/// The attribute flags of the internet-password subcommands, with `security`'s letters.
struct InternetPasswordOptions: ParsableArguments {
    @Option(name: [.customShort("a"), .customLong("account")], parsing: .unconditional, help: "Account name (kSecAttrAccount).")
    var account: String?

    @Option(name: [.customShort("s"), .customLong("server")], parsing: .unconditional, help: "Server name (kSecAttrServer).")
    var server: String?

    @Option(name: [.customShort("l"), .customLong("label")], parsing: .unconditional, help: "Label (kSecAttrLabel); an added item's label defaults to the server.")
    var label: String?

    @Option(name: [.customShort("D"), .customLong("kind")], parsing: .unconditional, help: "Kind, shown as the item's description (kSecAttrDescription).")
    var kind: String?

    @Option(name: [.customShort("j"), .customLong("comment")], parsing: .unconditional, help: "Comment (kSecAttrComment).")
    var comment: String?

    @Option(name: [.customShort("c"), .customLong("creator")], parsing: .unconditional, help: "Creator, a four-character code stored as a number (kSecAttrCreator).")
    var creator: String?

    @Option(name: [.customShort("C"), .customLong("type")], parsing: .unconditional, help: "Type, a four-character code stored as a number (kSecAttrType).")
    var type: String?

    @Option(name: [.customShort("d"), .customLong("security-domain")], parsing: .unconditional, help: "Security domain (kSecAttrSecurityDomain).")
    var securityDomain: String?

    @Option(name: [.customShort("p"), .customLong("path")], parsing: .unconditional, help: "Path (kSecAttrPath).")
    var path: String?

    @Option(name: [.customShort("P"), .customLong("port")], parsing: .unconditional, help: "Port number (kSecAttrPort).")
    var port: Int?

    @Option(name: [.customShort("r"), .customLong("protocol")], parsing: .unconditional, help: "Protocol, a four-character code such as \"htps\" or \"ftp \" (kSecAttrProtocol).")
    var protocolCode: String?

    @Option(name: [.customShort("t"), .customLong("authentication-type")], parsing: .unconditional, help: "Authentication type, a four-character code such as \"dflt\" (kSecAttrAuthenticationType).")
    var authenticationType: String?

    func validate() throws {
        if let port, let problem = PasswordRequest.portProblem(port) { throw ValidationError(problem) }
    }

    /// The options given, by the keys of ``PasswordCommandSyntax``, the port apart.
    var given: [String: String] {
        ["account": account, "server": server, "label": label, "kind": kind, "comment": comment,
         "creator": creator, "type": type, "securityDomain": securityDomain, "path": path,
         "protocolCode": protocolCode, "authenticationType": authenticationType].compactMapValues { $0 }
    }

    var givenPort: Int? { port }
}
