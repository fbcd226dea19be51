import ArgumentParser

/// The attribute flags of the generic-password subcommands, with `security`'s letters.
///
/// Values are taken unconditionally (`-a -x` makes "-x" the account), as getopt takes them.
struct GenericPasswordOptions: ParsableArguments {
    @Option(name: [.customShort("a"), .customLong("account")], parsing: .unconditional, help: "Account name (kSecAttrAccount).")
    var account: String?

    @Option(name: [.customShort("s"), .customLong("service")], parsing: .unconditional, help: "Service name (kSecAttrService).")
    var service: String?

    @Option(name: [.customShort("l"), .customLong("label")], parsing: .unconditional, help: "Label (kSecAttrLabel); an added item's label defaults to the service.")
    var label: String?

    @Option(name: [.customShort("D"), .customLong("kind")], parsing: .unconditional, help: "Kind, shown as the item's description (kSecAttrDescription).")
    var kind: String?

    @Option(name: [.customShort("j"), .customLong("comment")], parsing: .unconditional, help: "Comment (kSecAttrComment).")
    var comment: String?

    @Option(name: [.customShort("G"), .customLong("generic")], parsing: .unconditional, help: "Generic attribute (kSecAttrGeneric), stored as UTF-8 data.")
    var generic: String?

    @Option(name: [.customShort("c"), .customLong("creator")], parsing: .unconditional, help: "Creator, a four-character code stored as a number (kSecAttrCreator).")
    var creator: String?

    @Option(name: [.customShort("C"), .customLong("type")], parsing: .unconditional, help: "Type, a four-character code stored as a number (kSecAttrType).")
    var type: String?

    /// The options given, by the keys of ``PasswordCommandSyntax`` (the port apart: none here).
    var given: [String: String] {
        ["account": account, "service": service, "label": label, "kind": kind, "comment": comment,
         "generic": generic, "creator": creator, "type": type].compactMapValues { $0 }
    }

    var givenPort: Int? { nil }
}
