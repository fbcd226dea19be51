import ArgumentParser
import KeychainServices

/// `lock-keychain`: locks a keychain, or with -a every keychain of this user, for every process
/// of this user.
struct LockKeychain: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lock-keychain",
        abstract: "Lock a keychain.",
        discussion: """
            Locks the keychain for every process of this user: items protected by its password \
            (kSecAttrAccessibleWhenUnlocked and ...AfterFirstUnlock) cannot be read until it is \
            unlocked again, and reading them fails with errSecInteractionNotAllowed (exit 36). \
            With -a, every keychain is locked: each *.keychain-db file in the keychains folder, \
            and the default keychain. A keychain without a password can never lock: the command \
            succeeds and says so on standard error, naming the command that sets a password \
            (set-keychain-password). Where SWIFT_KEYCHAIN_KEEPER names a keeper, the keeper \
            locks the keychain it holds for you, for every program it serves.
            """)

    @Flag(name: .customShort("a"), help: "Lock every keychain: each *.keychain-db in the keychains folder, and the default keychain.")
    var all = false

    @OptionGroup var location: KeychainOption

    @Argument(help: ArgumentHelp("The keychain (instead of --keychain).", valueName: "keychain"))
    var keychains: [String] = []

    func validate() throws {
        try location.validate(positional: keychains, allowsSeveral: false)
        if all && !location.named(keychains).isEmpty { throw ValidationError("Give -a or a keychain, not both.") }
    }

    func run() throws {
        if location.named(keychains).isEmpty, let socket = try KeychainSession.servedSocket() {
            try Self.lockServed(socket: socket)
            return
        }
        guard all else {
            try Self.lock(KeychainSession.targets(location.named(keychains))[0])
            return
        }
        let targets = KeychainSession.allExisting()
        if targets.isEmpty {
            Console.err("\(Console.programName): there is no keychain to lock.\n")
            return
        }
        // One keychain that cannot be opened (another device key, damage) must not leave the
        // others unlocked: lock every one that opens, then report what failed.
        var failures: [CommandFailure] = []
        for target in targets {
            do {
                try Self.lock(target)
            } catch {
                failures.append(error)
            }
        }
        for failure in failures.dropLast() { Console.report(failure) }
        if let last = failures.last { throw last }
    }

    /// Served: the keeper locks the keychain it holds for this user, for every program it serves.
    private static func lockServed(socket: String) throws(CommandFailure) {
        let context = "SecKeychainLock \(socket)"
        let (status, reply) = KeeperKeychainCall.lock.send(to: socket)
        switch (status, reply?.outcome) {
        case (errSecSuccess, .locked?):
            return
        case (errSecSuccess, .hasNoPassword?):
            Console.err("\(Console.programName): the keychain served at \(socket) has no password, so it cannot be locked.\n")
        default:
            throw KeeperChoice.failure(status, context, socket: socket)
        }
    }

    private static func lock(_ target: KeychainSession.Target) throws(CommandFailure) {
        let file = try KeychainSession.open(target)
        let context = "SecKeychainLock \(target.url.path)"
        if try !KeychainAdministration.hasPassword(file, context: context) {
            Console.err(KeychainAdministration.cannotLockNote(target))
            return
        }
        try KeychainAdministration.lock(file, context: context)
    }
}
