import KeychainctlCommandLine

/// What keychainctl says about items whose access control needs the user: the text shown above
/// the keychain password prompt (the `kSecUseOperationPrompt` of its calls), which names what
/// asks, for which item, in which keychain, and the note a command prints when it left such
/// items out. One line each, kept short enough for a terminal line with a keychain path.
enum ItemAuthenticationText {
    /// The prompt text of a per-credential command that asks for the item it matched. The item
    /// is named by what the command was given to match, since nothing else of it can be read
    /// before the authentication.
    static func prompt(_ request: PasswordRequest, keychainPath: String) -> String {
        let doing: String
        switch request.action {
        case .find: doing = "read"
        case .delete: doing = "show and delete"
        case .add: doing = "update"
        }
        let given = matchedAttributes(request)
        let item = given.isEmpty
            ? "the first \(request.item.name) password item"
            : "the \(request.item.name) password item with " + given.joined(separator: ", ")
        return "\(Console.programName) \(request.commandName) wants to \(doing) \(item) in keychain \"\(keychainPath)\"."
    }

    /// The prompt text of `dump-keychain -d`, which asks once for every item of the keychain
    /// that needs authentication.
    static func dumpPrompt(keychainPath: String) -> String {
        "\(Console.programName) dump-keychain -d wants to read the items that ask for authentication in keychain \"\(keychainPath)\"."
    }

    /// The note (a line for standard error) that `count` items of `keychainPath` that need
    /// authentication were left out; `why` says what the reader can do about it.
    static func skippedNote(_ count: Int, keychainPath: String, why: String) -> String {
        let items = count == 1 ? "1 item that needs" : "\(count) items that need"
        return "\(Console.programName): skipped \(items) authentication (access control) in \"\(keychainPath)\"; \(why)\n"
    }

    /// The attributes a request matches on, as `name "value"`, in the order of its options.
    private static func matchedAttributes(_ request: PasswordRequest) -> [String] {
        var named: [String] = []
        for option in request.item.attributeOptions {
            let value = option.key == PasswordCommandSyntax.portKey ? request.port.map(String.init) : request.attributes[option.key]
            guard let value else { continue }
            named.append("\(words[option.key] ?? option.key) \"\(value)\"")
        }
        return named
    }

    /// Each option key of ``PasswordCommandSyntax`` as the prompt names its attribute.
    private static let words: [String: String] = [
        "account": "account", "service": "service", "server": "server", "label": "label", "kind": "kind",
        "comment": "comment", "generic": "generic attribute", "creator": "creator", "type": "type",
        "securityDomain": "security domain", "path": "path", "port": "port", "protocolCode": "protocol",
        "authenticationType": "authentication type",
    ]
}
