import ArgumentParser
import KeychainctlCommandLine

/// What the add, find and delete subcommands need to know about one class of password item
/// (generic or internet): its attribute flags, and the words of its help and errors.
///
/// ``AddPassword``, ``FindPassword`` and ``DeletePassword`` are written once over this, so the
/// two classes cannot drift apart in their flags, output or exit statuses.
protocol PasswordItemClass: ParsableArguments {
    /// The class's word in the subcommand names: `add-<name>-password`.
    static var name: String { get }
    /// The item, with its article, as the abstracts say it: "a generic password item".
    static var itemNoun: String { get }
    /// The flags that give an added item's password (the generic class also takes `-p`).
    static var passwordNames: NameSpecification { get }
    static var passwordHelp: String { get }
    /// The help text of the add, find and delete subcommands.
    static var addDiscussion: String { get }
    static var findDiscussion: String { get }
    static var deleteExample: String { get }
    /// The class in the tables of ``PasswordCommandSyntax``.
    static var syntaxItem: PasswordCommandSyntax.Item { get }

    /// The attribute options given, by the keys of ``PasswordCommandSyntax`` (as
    /// ``PasswordRequest/attributes`` holds them), and the port.
    var given: [String: String] { get }
    var givenPort: Int? { get }
}

extension PasswordItemClass {
    /// True when the attributes an add needs (account, and service or server) were given.
    var hasPrimaryAttributes: Bool {
        given["account"] != nil && given[Self.syntaxItem.primaryKey] != nil
    }
}

extension GenericPasswordOptions: PasswordItemClass {
    static var name: String { "generic" }
    static var itemNoun: String { "a generic password item" }
    static var passwordNames: NameSpecification { [.customShort("w"), .customShort("p"), .customLong("password")] }
    static var passwordHelp: String { "The password (-p is the older spelling). Give -w last, or -w -, to be prompted without echo." }
    static var addDiscussion: String {
        """
        The account (-a) and service (-s) are required. Without -w the item is stored with an \
        empty password. \(PasswordArgument.warning(flag: "-w"))

        Example: keychainctl add-generic-password -a alice -s example.com -w
        """
    }
    static var findDiscussion: String {
        """
        Prints the first matching item's attributes on standard output, in the format of \
        macOS `security`. With -g the password follows on standard error ("password: …"); \
        with -w only the password is printed, on standard output (as hex when it has \
        unprintable bytes). No match exits 44 (errSecItemNotFound). With several keychains, \
        they are searched in order. --json prints the item as one JSON object instead (the \
        password in it only with -w or -g).

        Example: keychainctl find-generic-password -a alice -s example.com -w
        """
    }
    static var deleteExample: String { "keychainctl delete-generic-password -a alice -s example.com" }
    static var syntaxItem: PasswordCommandSyntax.Item { .generic }
}

extension InternetPasswordOptions: PasswordItemClass {
    static var name: String { "internet" }
    static var itemNoun: String { "an internet password item" }
    static var passwordNames: NameSpecification { [.customShort("w"), .customLong("password")] }
    static var passwordHelp: String { "The password. Give -w last, or -w -, to be prompted without echo." }
    static var addDiscussion: String {
        """
        The account (-a) and server (-s) are required; the authentication type defaults to \
        "dflt". Without -w the item is stored with an empty password. \(PasswordArgument.warning(flag: "-w"))

        Example: keychainctl add-internet-password -a alice -s example.com -r htps -P 443 -w
        """
    }
    static var findDiscussion: String {
        """
        Prints the first matching item's attributes on standard output, in the format of \
        macOS `security`. With -g the password follows on standard error; with -w only the \
        password is printed, on standard output. No match exits 44 (errSecItemNotFound). \
        --json prints the item as one JSON object instead (the password in it only with -w \
        or -g).

        Example: keychainctl find-internet-password -s example.com -r htps -w
        """
    }
    static var deleteExample: String { "keychainctl delete-internet-password -a alice -s example.com" }
    static var syntaxItem: PasswordCommandSyntax.Item { .internet }
}
