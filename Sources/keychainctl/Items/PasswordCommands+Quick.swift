// The add, find and delete password subcommands, filled in by ``QuickParse``. Each initializer
// sets every stored property the command declares (one left out would stop the process when
// read, which `QuickParseEquivalenceTests` would show), with the same keys as the option tables.

extension FindPassword: QuicklyParsedCommand where Item: QuicklyParsedItemClass {
    static var quickName: String { "find-\(Item.name)-password" }
    static var quickSyntax: QuickSyntax {
        QuickSyntax(Item.quickOptions, KeychainOption.quickOptions, AccessGroupOption.quickOptions, [
            QuickOption("showPassword", "-g", value: .none),
            QuickOption("passwordOnly", "-w", value: .none),
            QuickOption("json", "--json", value: .none),
        ])
    }

    init(quick given: QuickArguments) throws {
        self.init()
        attributes = try Item(quick: given)
        showPassword = given.flag("showPassword")
        passwordOnly = given.flag("passwordOnly")
        json = given.flag("json")
        location = try KeychainOption(quick: given)
        group = try AccessGroupOption(quick: given)
        keychains = given.positional
    }
}

extension AddPassword: QuicklyParsedCommand where Item: QuicklyParsedItemClass {
    static var quickName: String { "add-\(Item.name)-password" }
    static var quickSyntax: QuickSyntax {
        QuickSyntax(Item.quickOptions, KeychainOption.quickOptions, AccessGroupOption.quickOptions, [
            QuickOption("password", Item.quickPasswordNames),
            QuickOption("update", "-U", value: .none),
            QuickOption("allowAnyApplication", "-A", value: .none),
            QuickOption("trustedApplications", "-T", repeats: true),
        ])
    }

    init(quick given: QuickArguments) throws {
        self.init()
        attributes = try Item(quick: given)
        password = given.value("password")
        update = given.flag("update")
        allowAnyApplication = given.flag("allowAnyApplication")
        trustedApplications = given.all("trustedApplications")
        location = try KeychainOption(quick: given)
        group = try AccessGroupOption(quick: given)
        keychains = given.positional
    }
}

extension DeletePassword: QuicklyParsedCommand where Item: QuicklyParsedItemClass {
    static var quickName: String { "delete-\(Item.name)-password" }
    static var quickSyntax: QuickSyntax {
        QuickSyntax(Item.quickOptions, KeychainOption.quickOptions, AccessGroupOption.quickOptions)
    }

    init(quick given: QuickArguments) throws {
        self.init()
        attributes = try Item(quick: given)
        location = try KeychainOption(quick: given)
        group = try AccessGroupOption(quick: given)
        keychains = given.positional
    }
}
