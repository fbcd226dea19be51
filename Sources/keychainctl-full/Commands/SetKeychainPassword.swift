import ArgumentParser
import KeychainServices

/// `set-keychain-password`: sets, changes or removes a keychain's password.
struct SetKeychainPassword: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-keychain-password",
        abstract: "Set the password of a keychain.",
        discussion: """
            Changes the keychain password: the class keys are re-wrapped, the items are not \
            rewritten. A keychain that has no password gets one (-o is not needed). An empty new \
            password removes the password: items readable only when a password is set \
            (kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly) are then destroyed. Passwords not \
            given are prompted for. While the keychain has seals (seal-keychain), removing the \
            password is refused unless --force, which removes the seals too; a changed password \
            makes every seal stale (it refuses to unlock until sealed again). \(PasswordArgument.warning(flag: "-o or -p"))
            """)

    @Option(name: [.customShort("o"), .customLong("old-password")], parsing: .unconditional,
            help: ArgumentHelp("The current password.", valueName: "password"))
    var oldPassword: String?

    @Option(name: [.customShort("p"), .customLong("new-password")], parsing: .unconditional,
            help: ArgumentHelp("The new password.", valueName: "password"))
    var newPassword: String?

    @Flag(name: .customLong("force"), help: "Remove the password even though the keychain has seals, removing them too.")
    var force = false

    @OptionGroup var location: KeychainOption

    @Argument(help: ArgumentHelp("The keychain (instead of --keychain).", valueName: "keychain"))
    var keychains: [String] = []

    func validate() throws {
        try location.validate(positional: keychains, allowsSeveral: false)
    }

    func run() throws {
        let target = KeychainSession.targets(location.named(keychains))[0]
        let context = "SecKeychainChangePassword \(target.url.path)"
        let file = try KeychainSession.open(target)
        let hasPassword = try KeychainAdministration.hasPassword(file, context: context)
        let current: [UInt8]? = hasPassword ? try PasswordArgument.resolve(
            oldPassword ?? PasswordArgument.readMarker, prompt: "Old Password: ", confirmPrompt: nil, context: context) : nil
        let new = try PasswordArgument.resolve(newPassword ?? PasswordArgument.readMarker, prompt: "New Password: ",
                                               confirmPrompt: "Retype New Password: ", context: context)
        // Read before the change, for the exact re-seal command of each; when a record does not
        // authenticate, only the names are read, and the advice stays generic.
        let records = hasPassword ? ((try? file.seals()) ?? []).map(\.record) : []
        let seals = !hasPassword ? [] : records.isEmpty ? (try? file.sealNames()) ?? [] : records.map(\.name)
        do throws(CommandFailure) {
            try KeychainAdministration.setPassword(file, new: new.isEmpty ? nil : new, current: current, droppingSeals: force, context: context)
        } catch {
            throw error.replacingHint(for: errSecAuthFailed,
                                      with: "The current password of \(target.url.path) (-o, or the Old Password prompt) was not accepted; the password is unchanged.")
                .replacingHint(for: errSecParam,
                               with: "Remove the seals first (`\(Console.programName) remove-seal NAME\(target.commandArgument)`), or give --force to remove the password and the seals; the password is unchanged.")
                .about(target)
        }
        if !seals.isEmpty {
            let program = Console.programName
            if new.isEmpty {
                Console.err("\(program): removed the seals \(seals.joined(separator: ", ")) with the password.\n")
            } else {
                let commands = records.map { SealMethod.resealCommand($0, target: target) }
                let advice = commands.count == seals.count
                    ? "seal again, with the same choices, with " + commands.joined(separator: " and ")
                    : "seal again with `\(program) seal-keychain --with METHOD --name NAME --replace\(target.commandArgument)`, giving the --pcrs or --systemd-key each was made with"
                Console.err("\(program): the seals \(seals.joined(separator: ", ")) were made for the old password and are now stale; \(advice).\n")
            }
        }
    }
}
