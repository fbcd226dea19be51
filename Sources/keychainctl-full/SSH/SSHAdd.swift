import ArgumentParser
import Foundation
import KeychainSSHAgent
import KeychainStore

/// `ssh-add`: adds key files to the agent at `SSH_AUTH_SOCK` (any agent: keychaind's,
/// OpenSSH's ssh-agent), with macOS's `ssh-add --apple-use-keychain`: the file stays on disk
/// and only its passphrase is kept in the keychain (``SSHPassphraseItems``).
struct SSHAdd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ssh-add",
        abstract: "Add key files to the SSH agent, keeping their passphrases in the keychain.",
        discussion: """
            Reads each OpenSSH private key FILE and sends its key to the agent at $SSH_AUTH_SOCK \
            (keychaind's, or OpenSSH's ssh-agent), with -c (confirm each use) and -t SECONDS \
            (lifetime) as ssh-add takes them. With --use-keychain (macOS's --apple-use-keychain, \
            also -K) the passphrase of an encrypted file is taken from the keychain when it is \
            stored there, else asked for and, once it decrypts the file, stored; a stored \
            passphrase that no longer decrypts the file is asked for again and replaced. The \
            item is macOS's: a generic password of service SSH, account the file's absolute path, \
            label "SSH: PATH". --load-keychain (--apple-load-keychain, -A) adds every key file \
            whose passphrase the keychain holds. The passphrase is asked on the terminal without \
            echo, else read as one line from standard input or --passphrase-fd N.
            """)

    @Flag(name: [.customLong("use-keychain"), .customLong("apple-use-keychain"), .customShort("K")],
          help: "Take the passphrase from the keychain, and store it there once it is asked.")
    var useKeychain = false

    @Flag(name: [.customLong("load-keychain"), .customLong("apple-load-keychain"), .customShort("A")],
          help: "Add every key file whose passphrase the keychain holds.")
    var loadKeychain = false

    @Flag(name: .customShort("c"), help: "Have the agent confirm each use of the keys.")
    var confirm = false

    @Option(name: .customShort("t"), help: ArgumentHelp("The keys' lifetime in the agent, in seconds.", valueName: "life"))
    var lifetime: UInt32?

    @Option(name: .customLong("passphrase-fd"),
            help: ArgumentHelp("Read passphrases as lines from this open file descriptor (- for standard input).", valueName: "fd"))
    var passphraseFD: PasswordDescriptor?

    @OptionGroup var location: KeychainOption

    @Argument(help: ArgumentHelp("The private key files.", valueName: "file"))
    var files: [String] = []

    func validate() throws {
        if files.isEmpty && !loadKeychain { throw ValidationError("Name a key file, or give --load-keychain.") }
        if lifetime == 0 { throw ValidationError("-t is a number of seconds above zero.") }
    }

    func run() throws {
        guard let socket = ProcessInfo.processInfo.environment["SSH_AUTH_SOCK"], !socket.isEmpty else {
            throw CommandFailure.general("ssh-add", "SSH_AUTH_SOCK is not set: there is no agent to add keys to.",
                                         hint: "Start one (keychaind --ssh-agent, or ssh-agent) and export SSH_AUTH_SOCK.")
        }
        let agent = SSHAgentClient(socketPath: socket)
        let target = KeychainSession.targets(location.named([]))[0]
        var keychainOpen = false
        func openKeychain() throws(CommandFailure) {
            guard !keychainOpen else { return }
            _ = try KeychainSession.openForItems(target, accessGroup: nil)
            keychainOpen = true
        }
        var paths = files.map(Self.absolutePath)
        if loadKeychain {
            try openKeychain()
            let stored = try CommandFailure.about(target) { () throws(CommandFailure) in try SSHPassphraseItems.paths() }
            paths += stored.filter { FileManager.default.fileExists(atPath: $0) && !paths.contains($0) }
        }
        var failed: CommandFailure?
        for path in paths {
            do throws(CommandFailure) {
                try add(path, to: agent, keychain: target, openKeychain: openKeychain)
            } catch {
                // Like ssh-add, go on with the other files and exit with the failure at the end.
                Console.report(error)
                failed = error
            }
        }
        if let failed { throw ExitCode(failed.exitCode) }
    }

    private func add(_ path: String, to agent: SSHAgentClient, keychain target: KeychainSession.Target,
                     openKeychain: () throws(CommandFailure) -> Void) throws(CommandFailure) {
        let context = "ssh-add \(path)"
        let file = try SSHKeyFileInput.parse(path, context: context)
        var opened: SSHKeyFileInput.Opened?
        var stored: [UInt8]?
        let keepsPassphrase = (useKeychain || loadKeychain) && file.isEncrypted
        if keepsPassphrase {
            try openKeychain()
            stored = try CommandFailure.about(target) { () throws(CommandFailure) in try SSHPassphraseItems.passphrase(for: path) }
            if let known = stored {
                opened = try SSHKeyFileInput.open(file, path: path, known: known, passphraseFD: nil, context: context)
                if opened == nil { Console.err("The passphrase stored in the keychain for \(path) no longer decrypts it.\n") }
            }
        }
        if opened == nil {
            opened = try SSHKeyFileInput.open(file, path: path, passphraseFD: passphraseFD, context: context)
        }
        guard var key = opened else { throw SSHKeyFileInput.failure(.wrongPassphrase, context: context) }
        defer { SecretBuffer.wipe(&key.passphrase) }
        let needsStoring = keepsPassphrase && stored != key.passphrase
        if stored != nil { SecretBuffer.wipe(&stored!) }
        if needsStoring {
            try CommandFailure.about(target) { () throws(CommandFailure) in try SSHPassphraseItems.store(key.passphrase, for: path) }
            Console.err("Passphrase stored in keychain: \(path)\n")
        }
        do {
            try agent.add(key.key, comment: key.comment, constraints: SSHKeyConstraints(confirm: confirm, lifetime: lifetime))
        } catch {
            throw CommandFailure.general(context, error.description.capitalisedFirst + ".")
        }
        Console.err("Identity added: \(path) (\(key.comment))\n")
    }

    /// The path as Apple's OpenSSH names the item: absolute, from the current folder, without
    /// resolving links.
    static func absolutePath(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }
}
