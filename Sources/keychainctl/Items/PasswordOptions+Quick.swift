// The option tables ``QuickParse`` reads the password subcommands' groups by. Each key is the
// property's name and each list of names is the one its `@Option` declares.

/// A password item class whose attribute flags ``QuickParse`` can read.
protocol QuicklyParsedItemClass: PasswordItemClass, QuicklyParsedGroup {
    /// The spellings of `add-…-password`'s password option (its `passwordNames`).
    static var quickPasswordNames: [String] { get }
}

extension GenericPasswordOptions: QuicklyParsedItemClass {
    static var quickPasswordNames: [String] { ["-w", "-p", "--password"] }
    static var quickOptions: [QuickOption] {
        [
            QuickOption("account", "-a", "--account"),
            QuickOption("service", "-s", "--service"),
            QuickOption("label", "-l", "--label"),
            QuickOption("kind", "-D", "--kind"),
            QuickOption("comment", "-j", "--comment"),
            QuickOption("generic", "-G", "--generic"),
            QuickOption("creator", "-c", "--creator"),
            QuickOption("type", "-C", "--type"),
        ]
    }

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
    static var quickPasswordNames: [String] { ["-w", "--password"] }
    static var quickOptions: [QuickOption] {
        [
            QuickOption("account", "-a", "--account"),
            QuickOption("server", "-s", "--server"),
            QuickOption("label", "-l", "--label"),
            QuickOption("kind", "-D", "--kind"),
            QuickOption("comment", "-j", "--comment"),
            QuickOption("creator", "-c", "--creator"),
            QuickOption("type", "-C", "--type"),
            QuickOption("securityDomain", "-d", "--security-domain"),
            QuickOption("path", "-p", "--path"),
            QuickOption("port", "-P", "--port"),
            QuickOption("protocolCode", "-r", "--protocol"),
            QuickOption("authenticationType", "-t", "--authentication-type"),
        ]
    }

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
    static var quickOptions: [QuickOption] { [QuickOption("keychain", "--keychain", value: .plain)] }

    init(quick given: QuickArguments) throws {
        self.init()
        keychain = given.value("keychain")
    }
}

extension AccessGroupOption: QuicklyParsedGroup {
    static var quickOptions: [QuickOption] { [QuickOption("accessGroup", "--access-group", value: .plain)] }

    init(quick given: QuickArguments) throws {
        self.init()
        accessGroup = given.value("accessGroup")
        try validate()
    }
}
