import KeychainctlCommandLine

// The add, find and delete password subcommands, filled in by ``QuickParse``. Each initializer
// sets every stored property the command declares (one left out would stop the process when
// read, which `QuickParseEquivalenceTests` would show), with the same keys as the option tables.

extension FindPassword: QuicklyParsedCommand where Item: QuicklyParsedItemClass {
    static var quickName: String { "find-\(Item.name)-password" }
    static var quickSyntax: QuickSyntax { PasswordCommandSyntax.find(Item.quickItem) }

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
    static var quickSyntax: QuickSyntax { PasswordCommandSyntax.add(Item.quickItem) }

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
    static var quickSyntax: QuickSyntax { PasswordCommandSyntax.delete(Item.quickItem) }

    init(quick given: QuickArguments) throws {
        self.init()
        attributes = try Item(quick: given)
        location = try KeychainOption(quick: given)
        group = try AccessGroupOption(quick: given)
        keychains = given.positional
    }
}
