// How ``QuickParse`` fills in the password subcommands' option groups, by the keys of the
// tables in ``PasswordCommandSyntax`` (each key is the property's name).

import KeychainctlCommandLine

/// A password item class whose attribute flags ``QuickParse`` can read.
protocol QuicklyParsedItemClass: PasswordItemClass, QuicklyParsedGroup {
    /// Which of the tables of ``PasswordCommandSyntax`` reads this class's flags.
    static var quickItem: PasswordCommandSyntax.Item { get }
}

extension GenericPasswordOptions: QuicklyParsedItemClass {
    static var quickItem: PasswordCommandSyntax.Item { .generic }
    static var quickOptions: [QuickOption] { quickItem.attributeOptions }

    init(quick given: QuickArguments) throws {
        self.init()
        account = given.value("account")
        service = given.value("service")
        label = given.value("label")
        kind = given.value("kind")
        comment = given.value("comment")
        generic = given.value("generic")
        creator = given.value("creator")
        type = given.value("type")
        try validate()
    }
}

extension InternetPasswordOptions: QuicklyParsedItemClass {
    static var quickItem: PasswordCommandSyntax.Item { .internet }
    static var quickOptions: [QuickOption] { quickItem.attributeOptions }

    init(quick given: QuickArguments) throws {
        self.init()
        account = given.value("account")
        server = given.value("server")
        label = given.value("label")
        kind = given.value("kind")
        comment = given.value("comment")
        creator = given.value("creator")
        type = given.value("type")
        securityDomain = given.value("securityDomain")
        path = given.value("path")
        // The parser reads a port with Int(_:) too; anything that is not a number is its to report.
        if let text = given.value("port") {
            guard let port = Int(text) else { throw QuickParseDeclined() }
            self.port = port
        } else {
            port = nil
        }
        protocolCode = given.value("protocolCode")
        authenticationType = given.value("authenticationType")
        try validate()
    }
}

extension KeychainOption: QuicklyParsedGroup {
    static var quickOptions: [QuickOption] { PasswordCommandSyntax.keychainOptions }

    init(quick given: QuickArguments) throws {
        self.init()
        keychain = given.value("keychain")
    }
}

extension AccessGroupOption: QuicklyParsedGroup {
    static var quickOptions: [QuickOption] { PasswordCommandSyntax.accessGroupOptions }

    init(quick given: QuickArguments) throws {
        self.init()
        accessGroup = given.value("accessGroup")
        try validate()
    }
}
