import ArgumentParser
import Foundation
import KeychainSSHAgent
import KeychainServices
import KeychainStore

/// `import-ssh-key`: stores the key of an OpenSSH private key file in the keychain as an SSH
/// key, the item keychaind's agent offers (docs/ssh-agent.md), as `ssh-add` to that agent would.
struct ImportSSHKey: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-ssh-key",
        abstract: "Import an OpenSSH private key file as an SSH key of the keychain.",
        discussion: """
            Reads FILE (ssh-keygen's format, "-----BEGIN OPENSSH PRIVATE KEY-----"), asking its \
            passphrase when it is encrypted: on the terminal without echo, else one line from \
            standard input, or from --passphrase-fd N. The key is stored as keychaind's SSH agent \
            stores a key added with ssh-add (a private key item tagged ssh, or ssh-confirm with \
            --confirm, labelled with the comment), so the agent offers it; the file may be deleted \
            afterwards. With --user-presence the agent asks for the keychain password at each \
            signature. Prints the key's fingerprint as ssh-keygen -l does. Ed25519, ECDSA (P-256, \
            P-384, P-521) and RSA keys of 1024 bits or more. A wrong passphrase exits 51 (errSecAuthFailed), \
            a damaged file or another format 87 (errSecUnknownFormat), an unsupported cipher or key \
            type 252 (errSecUnimplemented).
            """)

    @Argument(help: ArgumentHelp("The private key file.", valueName: "file"))
    var file: String

    @Option(name: .customLong("comment"), help: ArgumentHelp("The key's comment (default: the file's).", valueName: "comment"))
    var comment: String?

    @OptionGroup var use: SSHKeyUseOptions

    @Option(name: .customLong("passphrase-fd"),
            help: ArgumentHelp("Read the file's passphrase as one line from this open file descriptor (- for standard input).", valueName: "fd"))
    var passphraseFD: PasswordDescriptor?

    @OptionGroup var location: KeychainOption

    func run() throws {
        let context = "import-ssh-key \(file)"
        let target = KeychainSession.targets(location.named([]))[0]
        let parsed = try SSHKeyFileInput.parse(file, context: context)
        guard var opened = try SSHKeyFileInput.open(parsed, path: file, passphraseFD: passphraseFD, context: context) else {
            throw SSHKeyFileInput.failure(.wrongPassphrase, context: context)
        }
        SecretBuffer.wipe(&opened.passphrase)
        let secKey = try SSHKeyFileInput.secKey(opened.key, context: context)
        let file = try KeychainSession.openForItems(target, accessGroup: nil)
        let keyComment = comment ?? opened.comment
        let accessControl = try use.accessControl(for: file, keychain: target)
        do {
            try SSHKeychainKeys().add(secKey, comment: keyComment, constraints: use.constraints, accessControl: accessControl)
        } catch {
            throw CommandFailure.status(error.status, "SecItemAdd").about(target)
        }
        Console.out(SSHPublicKeyText.listingLine(blob: opened.key.publicKeyBlob, comment: keyComment) + "\n")
    }
}
