import ArgumentParser
import Foundation
import KeychainServices
import KeychainStore

/// `unlock-keychain`: unlocks a keychain with its password.
struct UnlockKeychain: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unlock-keychain",
        abstract: "Unlock a keychain.",
        discussion: """
            Unlocks the keychain for every process of this login session (every process of this \
            user with --all-sessions: systemd --user services and other logins too, until the \
            keychain is locked or its idle timeout passes). Without -p the password is \
            prompted for on the terminal without echo (or read as one line from standard input \
            when it is not a terminal). --password-fd N reads it as one line from the open file \
            descriptor N instead (--password-fd - from standard input), for containers and CI. \
            A wrong password exits 51 (errSecAuthFailed). A keychain without a password is \
            always unlocked; nothing is asked then. --sealed unlocks without a password, from \
            a seal made by seal-keychain (every seal in turn, or the one --seal names; \
            --credential FILE reads the key systemd decrypted for a unit, which is also looked \
            for in $CREDENTIALS_DIRECTORY). Where SWIFT_KEYCHAIN_KEEPER names a keeper, the \
            password goes to the keeper, which unlocks the keychain it holds for you, for every \
            program it serves, until it stops. \(PasswordArgument.warning(flag: "-p"))
            """)

    @Option(name: [.customShort("p"), .customLong("password")], parsing: .unconditional,
            help: ArgumentHelp("The keychain password. Give -p last, or -p -, to be prompted without echo.", valueName: "password"))
    var password: String?

    @Option(name: .customLong("password-fd"),
            help: ArgumentHelp("Read the password as one line from this open file descriptor (- for standard input).", valueName: "fd"))
    var passwordFD: PasswordDescriptor?

    @Flag(name: .customShort("u"), help: "Do not use a password: succeeds only for a keychain without one (otherwise errSecAuthFailed).")
    var withoutPassword = false

    @Flag(name: .customLong("sealed"), help: "Unlock from a seal (seal-keychain) instead of a password.")
    var sealed = false

    @Option(name: .customLong("seal"), help: ArgumentHelp("Unlock from this seal only (implies --sealed).", valueName: "name"))
    var sealName: String?

    @Option(name: .customLong("credential"),
            help: ArgumentHelp("With --sealed: a file holding the unsealed key, as systemd's LoadCredentialEncrypted= provides it.", valueName: "file"))
    var credential: String?

    @Flag(name: .customLong("all-sessions"),
          help: "Unlock for every process of this user, not only those of this login session (systemd --user services, other logins).")
    var allSessions = false

    @OptionGroup var location: KeychainOption

    @Argument(help: ArgumentHelp("The keychain (instead of --keychain).", valueName: "keychain"))
    var keychains: [String] = []

    func validate() throws {
        try location.validate(positional: keychains, allowsSeveral: false)
        if withoutPassword && password != nil { throw ValidationError("Give -u or -p, not both.") }
        if passwordFD != nil && (password != nil || withoutPassword) {
            throw ValidationError("Give --password-fd, -p or -u, not two of them.")
        }
        if (sealed || sealName != nil) && (password != nil || withoutPassword || passwordFD != nil) {
            throw ValidationError("--sealed unlocks without a password: give it without -p, -u or --password-fd.")
        }
        if credential != nil && !(sealed || sealName != nil) {
            throw ValidationError("--credential goes with --sealed.")
        }
    }

    private var scope: UnlockScope { allSessions ? .allSessions : .thisSession }

    func run() throws {
        if location.named(keychains).isEmpty, let socket = try KeychainSession.servedSocket() {
            try unlockServed(socket: socket)
            return
        }
        let target = KeychainSession.targets(location.named(keychains))[0]
        let context = "SecKeychainUnlock \(target.url.path)"
        let file = try KeychainSession.open(target)
        guard try KeychainAdministration.hasPassword(file, context: context) else { return }
        if sealed || sealName != nil {
            try SealedUnlock.unlock(file, target: target, name: sealName, credential: credential.map { URL(fileURLWithPath: $0) },
                                    scope: scope, context: context)
            return
        }
        if withoutPassword { throw CommandFailure.status(errSecAuthFailed, context, hint: "The keychain has a password; give it with -p or at the prompt.") }
        let prompt = "password to unlock \(target.url.path): "
        let secret = if let passwordFD {
            try passwordFD.read(prompt: prompt, context: context)
        } else {
            try PasswordArgument.resolve(password ?? PasswordArgument.readMarker, prompt: prompt,
                                         confirmPrompt: nil, context: context)
        }
        do throws(CommandFailure) {
            try KeychainAdministration.unlock(file, password: secret, scope: scope, context: context)
        } catch {
            throw error.replacingHint(for: errSecAuthFailed,
                                      with: KeychainAdministration.wrongKeychainPasswordHint(target.url.path))
        }
    }

    /// Served: hands the password to the keeper, which unlocks the keychain it holds for this
    /// user, for every program it serves, until it stops (docs/design-notes.md, "The system keeper").
    private func unlockServed(socket: String) throws {
        let context = "SecKeychainUnlock \(socket)"
        guard !(sealed || sealName != nil) else {
            throw CommandFailure.unsupported(context, "A served keychain is not unlocked from a seal here.",
                                             hint: "Unlock it with its password, or at login (pam_keychain.so keeper=system).")
        }
        guard !withoutPassword else {
            throw CommandFailure.unsupported(context, "-u is not served.", hint: "A served keychain without a password is always unlocked.")
        }
        let prompt = "password to unlock the keychain served at \(socket): "
        let secret = if let passwordFD {
            try passwordFD.read(prompt: prompt, context: context)
        } else {
            try PasswordArgument.resolve(password ?? PasswordArgument.readMarker, prompt: prompt, confirmPrompt: nil, context: context)
        }
        guard let text = String(validating: secret, as: UTF8.self), !text.isEmpty else {
            throw CommandFailure.status(errSecParam, context, hint: "The keeper takes a password of UTF-8 text.")
        }
        let (status, reply) = KeeperKeychainCall.unlock(user: nil, password: text, create: false).send(to: socket)
        switch (status, reply?.outcome) {
        case (errSecSuccess, .unlocked?), (errSecSuccess, .hasNoPassword?):
            return
        case (errSecAuthFailed, _):
            throw CommandFailure.status(status, context, hint: "The password was not the keychain's; try again.")
        default:
            throw KeeperChoice.failure(status, context, socket: socket)
        }
    }
}
