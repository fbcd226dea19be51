import ArgumentParser
import Foundation
import KeychainServices
import KeychainStore

/// `show-keychain-info`: shows a keychain's lock settings, where its two halves (the file and
/// the device key) live, and whether it is locked.
struct ShowKeychainInfo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show-keychain-info",
        abstract: "Show the settings for a keychain.",
        discussion: """
            Prints, on standard error as macOS `security` does, a line such as \
            Keychain "/path/login.keychain-db" no-timeout  or  Keychain "/path" timeout=300s. \
            The timeout is the one set with set-keychain-settings -t; it matters only for a \
            keychain with a password.

            Then, on standard output: the keychain file, its device key (the file opens only with \
            it, so the two must be copied and backed up together), and whether the keychain is \
            locked, unlocked, or has no password and never locks; then one seal: line per seal \
            of its unlock key (seal-keychain), with its source and whether it is stale; then a \
            secrets: line saying who serves the Secret Service (org.freedesktop.secrets) on the \
            session bus now, which keychaind, gnome-keyring or another provider may own: the \
            program and its process, or nobody, or that there is no session bus; then a \
            programs: line saying how SecItem programs of this environment hold the keychain \
            (SWIFT_KEYCHAIN_KEEPER): embedded, opening the file, or served by keychaind's keeper. \
            Served, without a keychain named, the keeper is asked whether the keychain it holds \
            for you is locked, and only that and the secrets: and programs: lines are printed \
            (the keeper holds the file); --locked-status works as for a file.

            With --locked-status nothing is printed: the exit status says whether the keychain is \
            locked (36, as errSecInteractionNotAllowed) or not (0), for scripts: \
            `keychainctl show-keychain-info --locked-status || keychainctl unlock-keychain`.
            """)

    @Flag(name: .customLong("locked-status"), help: "Print nothing; exit 0 when the keychain is unlocked (or has no password), 36 when it is locked.")
    var lockedStatus = false

    @OptionGroup var location: KeychainOption

    @Argument(help: ArgumentHelp("The keychain (instead of --keychain).", valueName: "keychain"))
    var keychains: [String] = []

    /// The exit status of `--locked-status` for a locked keychain: the one a read of a locked
    /// keychain exits with, so that 36 means "locked" throughout.
    static let lockedExitStatus = ExitStatus.code(for: errSecInteractionNotAllowed)

    func validate() throws {
        try location.validate(positional: keychains, allowsSeveral: false)
    }

    func run() throws {
        if location.named(keychains).isEmpty, let socket = try KeychainSession.servedSocket() {
            // The keeper holds the keychain; what this environment can say without opening it.
            let (status, reply) = KeeperKeychainCall.status.send(to: socket)
            let context = "SecKeychainGetStatus \(socket)"
            guard status == errSecSuccess, let outcome = reply?.outcome, [.locked, .unlocked, .hasNoPassword].contains(outcome) else {
                throw KeeperChoice.failure(status, context, socket: socket)
            }
            if lockedStatus {
                if outcome == .locked { throw ExitCode(Self.lockedExitStatus) }
                return
            }
            Console.err("Keychain served by keychaind at \(socket)\n")
            let state = switch outcome {
            case .locked: "locked"
            case .unlocked: "unlocked"
            default: "never locks (no password)"
            }
            Console.out("state:      \(state)\n")
            Console.out("secrets:    \(SecretServiceProvider.describe())\n")
            Console.out("programs:   \(Self.keeperLine())\n")
            return
        }
        let target = KeychainSession.targets(location.named(keychains))[0]
        let file = try KeychainSession.open(target)
        let context = "SecKeychainCopySettings \(target.url.path)"
        let locked = try KeychainAdministration.isLocked(file, context: context)
        if lockedStatus {
            if locked { throw ExitCode(Self.lockedExitStatus) }
            return
        }
        var line = "Keychain \"\(target.url.path)\""
        if let timeout = try KeychainAdministration.lockTimeout(file, context: context) {
            line += " timeout=\(Int(timeout))s"
        } else {
            line += " no-timeout"
        }
        Console.err(line + "\n")
        Console.out(details(target, hasPassword: try KeychainAdministration.hasPassword(file, context: context), locked: locked))
        Console.out(sealLines(file, target))
        Console.out("secrets:    \(SecretServiceProvider.describe())\n")
        Console.out("programs:   \(Self.keeperLine())\n")
    }

    /// How programs of this environment hold their keychain (``KeychainKeeper``): embedded, or
    /// served by the keeper at a socket, and whether that keeper is listening now.
    static func keeperLine(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let keeper: KeychainKeeper
        do {
            keeper = try KeychainKeeper.fromEnvironment(environment)
        } catch {
            return "\(KeychainKeeper.environmentVariable) cannot be used: \(error.reason)"
        }
        guard let socket = keeper.socketPath else { return keeper.summary }
        var info = stat()
        let listening = lstat(socket, &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK
        return keeper.summary + (listening ? "" : " (no keeper listens there now: `keychaind --keeper` starts one)")
    }

    /// One `seal:` line per seal (seal-keychain), stale ones marked; a record that does not
    /// authenticate is named as damaged rather than hidden.
    private func sealLines(_ file: KeychainFile, _ target: KeychainSession.Target) -> String {
        let program = Console.programName
        do {
            return try file.seals().map { seal in
                let record = seal.record
                var line = "seal:       \(record.name) (\(SealMethod.describe(record)); made \(record.created.formatted(.iso8601)))"
                if seal.isStale {
                    line += " stale: made for an earlier password; \(SealMethod.resealCommand(record, target: target)) makes it anew"
                }
                return line + "\n"
            }.joined()
        } catch {
            let names = (try? file.sealNames()) ?? []
            return "seals:      damaged (\(error.reason)); remove with `\(program) remove-seal NAME\(target.commandArgument)` (\(names.joined(separator: ", ")))\n"
        }
    }

    private func details(_ target: KeychainSession.Target, hasPassword: Bool, locked: Bool) -> String {
        let state = !hasPassword
            ? "never locks (no password; set one with `\(Console.programName) set-keychain-password\(target.commandArgument)`)"
            : locked ? "locked" : "unlocked"
        return """
            file:       \(target.url.path)
            device key: \(DeviceKey.defaultLocation().path)
            state:      \(state)
            The file opens only with its device key: copy and back up the two together. A copy of \
            the file without the device key cannot be opened, by anyone.

            """
    }
}
