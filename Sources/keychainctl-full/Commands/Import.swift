import ArgumentParser
import Foundation
import KeychainServices

/// `import`: adds the items of a backup made by `export`, or (`--from gnome-keyring`) of a
/// GNOME keyring file (``GnomeKeyringImport``).
struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import the items of a backup file, or of a GNOME keyring, into a keychain.",
        discussion: """
            Reads a backup written by `keychainctl export` and adds its items, printing how many \
            were imported. A wrong passphrase exits 51 (errSecAuthFailed).

            A PKCS#12 file (.p12, .pfx, or -f pkcs12) adds its identities (certificate and \
            private key) and its other certificates, with -P its passphrase; a certificate file \
            (.cer, .crt, .der, .pem, or -t cert; DER or PEM, several in one PEM file) adds its \
            certificates. Files of OpenSSL 1.x's legacy encryption (RC2, 3DES) are read too.

            With --from gnome-keyring, reads a keyring file of gnome-keyring (default: \
            ${XDG_DATA_HOME:-~/.local/share}/keyrings/login.keyring, else keyrings/v1/login.keyring, \
            libsecret's and oo7's format) with the keyring's password and stores its items as \
            keychaind would have stored them: service and username \
            become a generic password, a network password an internet password, any other \
            attribute set is kept whole. All items or none; an item whose keychain item exists \
            is merged as a backup's are (the later modification wins). A wrong password exits 51.

            \(PasswordArgument.warning(flag: "-P"))
            """)

    /// A backup has its own passphrase, chosen at `export`; people try the keychain password.
    static let wrongPassphraseHint = "The backup's passphrase was not accepted: it is the passphrase given to export when the backup was written, not a keychain password."

    @Argument(help: ArgumentHelp("The backup file to read (with --from gnome-keyring: the keyring file, by default the login keyring).",
                                 valueName: "file"))
    var input: String?

    @Option(name: .customLong("from"), help: ArgumentHelp("What the file is: a keychain backup, or a GNOME keyring file.", valueName: "kind"))
    var source: ImportSource = .backup

    @Option(name: [.customShort("P"), .customLong("passphrase")], parsing: .unconditional,
            help: ArgumentHelp("The backup's passphrase (with --from gnome-keyring, the keyring's password); prompted for when not given.",
                               valueName: "passphrase"))
    var passphrase: String?

    @Option(name: .customShort("k"), help: ArgumentHelp("The keychain to import into (the same as --keychain).", valueName: "keychain"))
    var targetKeychain: String?

    @Option(name: .customShort("f"), help: ArgumentHelp("The file's format: pkcs12, or pemseq/x509 for certificates (default: from the extension: .p12/.pfx, .cer/.crt/.der/.pem).", valueName: "format"))
    var format: ImportFileFormat?

    @Option(name: .customShort("t"), help: ArgumentHelp("What the file holds: cert, or agg (a PKCS#12 aggregate).", valueName: "type"))
    var type: ImportItemType?

    @OptionGroup var location: KeychainOption

    func validate() throws {
        if targetKeychain != nil && location.keychain != nil { throw ValidationError("Give -k or --keychain, not both.") }
        if input?.isEmpty == true { throw ValidationError("The file to import cannot be empty.") }
        if source == .backup && input == nil { throw ValidationError("Missing expected argument '<file>': the backup to import.") }
    }

    func run() throws {
        let target = KeychainSession.targets(location.named([targetKeychain].compactMap { $0 }))[0]
        if source == .backup, let input, let kind = CertificateImport.kind(of: input, format: format, type: type) {
            return try CertificateImport.run(kind, file: input, passphrase: passphrase, target: target)
        }
        guard source == .backup, let input else {
            return try GnomeKeyringImport.run(file: input, password: passphrase, target: target)
        }
        let context = "SecKeychainImport \(target.url.path)"
        let file = try KeychainSession.open(target)
        let secret = try PasswordArgument.resolve(passphrase ?? PasswordArgument.readMarker, prompt: "passphrase for the backup: ",
                                                  confirmPrompt: nil, context: context)
        let count: Int
        do throws(CommandFailure) {
            count = try KeychainAdministration.importBackup(file, from: URL(fileURLWithPath: input), passphrase: secret, context: context)
        } catch {
            throw error.replacingHint(for: errSecAuthFailed, with: Self.wrongPassphraseHint).about(target)
        }
        Console.out("\(count) item\(count == 1 ? "" : "s") imported.\n")
    }
}

/// What `import` reads.
enum ImportSource: String, ExpressibleByArgument, CaseIterable {
    /// A backup written by `keychainctl export`.
    case backup
    /// A keyring file of gnome-keyring (or of libsecret's file backend, or oo7).
    case gnomeKeyring = "gnome-keyring"
}
