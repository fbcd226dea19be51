/// The options of the add, find and delete password subcommands, as ``QuickArguments`` reads
/// them: each key is the name of the property keychainctl's command stores it in, and each list
/// of names is the one that property's `@Option` or `@Flag` declares. Defined here once, for
/// keychainctl's QuickParse and for the front program.
package enum PasswordCommandSyntax {
    /// The two item classes, by the word in their subcommands' names.
    package enum Item: Sendable {
        case generic, internet

        /// `generic` or `internet`, as in `find-generic-password`.
        package var name: String { self == .generic ? "generic" : "internet" }

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

        /// The spellings of `add-…-password`'s password option.
        package var passwordNames: [String] {
            self == .generic ? ["-w", "-p", "--password"] : ["-w", "--password"]
        }
    }

    /// The authentication type a new internet password gets when none is given, as `security`
    /// gives it (`kSecAttrAuthenticationTypeDefault`).
    package static let newInternetAuthenticationType = "dflt"

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
            QuickOption("allowAnyApplication", "-A", value: .none),
            QuickOption("trustedApplications", "-T", repeats: true),
        ])
    }

    /// `delete-…-password`.
    package static func delete(_ item: Item) -> QuickSyntax {
        QuickSyntax(item.attributeOptions, keychainOptions, accessGroupOptions)
    }
}
