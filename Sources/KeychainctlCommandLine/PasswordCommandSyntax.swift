/// The options of the add, find and delete password subcommands, as ``QuickArguments`` reads
/// them for ``PasswordRequest``: each key is the name of the property keychainctl-full's command
/// stores it in, and each list of names is the one that property's `@Option` or `@Flag`
/// declares (`CLIPasswordCommandTests` compares the two through keychainctl-full's
/// `--experimental-dump-help`).
package enum PasswordCommandSyntax {
    /// The three subcommands of each item class, by the word their names begin with.
    package enum Verb: String, Sendable { case find, add, delete }

    /// The two item classes, by the word in their subcommands' names.
    package enum Item: Sendable {
        case generic, internet

        /// `generic` or `internet`, as in `find-generic-password`.
        package var name: String { self == .generic ? "generic" : "internet" }

        /// The class's `kSecClass` value: `genp` or `inet`.
        package var classCode: String { self == .generic ? "genp" : "inet" }

        /// The attribute flags, with `security`'s letters.
        package var attributeOptions: [QuickOption] {
            switch self {
            case .generic:
                return [
                    QuickOption("account", "-a", "--account"),
                    QuickOption("service", "-s", "--service"),
                    QuickOption("label", "-l", "--label"),
                    QuickOption("kind", "-D", "--kind"),
                    QuickOption("comment", "-j", "--comment"),
                    QuickOption("generic", "-G", "--generic"),
                    QuickOption("creator", "-c", "--creator"),
                    QuickOption("type", "-C", "--type"),
                ]
            case .internet:
                return [
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
        }

        /// The key of the attribute that, with the account, an add needs: the service or server.
        package var primaryKey: String { self == .generic ? "service" : "server" }

        /// The usage error of an add without the account or ``primaryKey``.
        package var missingPrimaryAttributes: String {
            self == .generic ? "Both the account (-a) and the service (-s) are required."
                : "Both the account (-a) and the server (-s) are required."
        }

        /// The spellings of `add-…-password`'s password option.
        package var passwordNames: [String] {
            self == .generic ? ["-w", "-p", "--password"] : ["-w", "--password"]
        }
    }

    /// The authentication type a new internet password gets when none is given, as `security`
    /// gives it (`kSecAttrAuthenticationTypeDefault`).
    package static let newInternetAuthenticationType = "dflt"

    /// The key of `-P`, read as a number.
    package static let portKey = "port"

    /// The keys of the four-character code options (`-c`, `-C`, `-r`, `-t`), in the order their
    /// values are checked.
    package static let codeKeys = ["creator", "type", "protocolCode", "authenticationType"]

    /// The option a key belongs to in `item`'s table.
    package static func option(_ key: String, of item: Item) -> QuickOption? {
        item.attributeOptions.first { $0.key == key }
    }

    /// `--keychain PATH`.
    package static let keychainOptions = [QuickOption("keychain", "--keychain", value: .plain)]
    /// `--access-group GROUP`.
    package static let accessGroupOptions = [QuickOption("accessGroup", "--access-group", value: .plain)]

    /// `find-…-password`.
    package static func find(_ item: Item) -> QuickSyntax {
        QuickSyntax(item.attributeOptions, keychainOptions, accessGroupOptions, [
            QuickOption("showPassword", "-g", value: .none),
            QuickOption("passwordOnly", "-w", value: .none),
            QuickOption("json", "--json", value: .none),
        ])
    }

    /// `add-…-password`.
    package static func add(_ item: Item) -> QuickSyntax {
        QuickSyntax(item.attributeOptions, keychainOptions, accessGroupOptions, [
            QuickOption("password", item.passwordNames),
            QuickOption("update", "-U", value: .none),
            QuickOption("synchronizable", "--synchronizable", value: .none),
            QuickOption("allowAnyApplication", "-A", value: .none),
            QuickOption("trustedApplications", "-T", repeats: true),
        ])
    }

    /// `delete-…-password`.
    package static func delete(_ item: Item) -> QuickSyntax {
        QuickSyntax(item.attributeOptions, keychainOptions, accessGroupOptions)
    }

    /// The syntax of `verb`'s subcommand for `item`.
    package static func syntax(_ verb: Verb, _ item: Item) -> QuickSyntax {
        switch verb {
        case .find: find(item)
        case .add: add(item)
        case .delete: delete(item)
        }
    }
}
