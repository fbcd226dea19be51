import ArgumentParser
import Foundation

/// `export`: writes an encrypted backup of a keychain's items, or (with `security`'s -t, -f, -w,
/// -p, or an -o file named like a certificate or key file) its certificates and keys
/// (``ItemExport``).
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a keychain's items to an encrypted backup, or its certificates and keys as security does.",
        discussion: """
            Writes every exportable item (all but ...ThisDeviceOnly ones) to a backup file \
            encrypted with a passphrase, for `import` on this or another machine. An existing \
            file is not replaced (exit 208, dupFNErr) unless --force is given; either way the \
            backup appears whole or not at all.

            With -t, -f, -w or -p, or with an -o file ending in .p12, .pfx, .pem, \
            .cer, .crt, .der, .p7b, .p7c, .p8 or .key, it exports certificates and keys as macOS \
            `security export` does: every item of the -t type (default all: certificates and \
            private keys) in the -f format (default: from the -o name, .p12/.pfx pkcs12, \
            .p7b/.p7c pkcs7, .p8 pkcs8; else pemseq for several items, x509 for one certificate, \
            openssl for one key), to -o or else standard output. Formats: x509, pemseq, \
            pkcs7 (certificates), openssl (PKCS#1/SEC1 keys, SubjectPublicKeyInfo), pkcs8, \
            pkcs12, openssh2 (public keys); openssh1, bsafe, netscape and raw exit 88 \
            (errSecUnsupportedFormat). \
            Private keys leave only encrypted under the passphrase (-P, else prompted): pkcs8, \
            pkcs12 and pemseq always, openssl with -w; a clear private key exits 86 \
            (errSecKeyIsSensitive). Files are created mode 0600. \(PasswordArgument.warning(flag: "-P"))
            """)

    @Option(name: .customShort("o"), help: ArgumentHelp("The file to write (certificate and key export: default standard output).", valueName: "file"))
    var output: String?

    @Option(name: .customShort("t"), help: ArgumentHelp("Items to export: certs, allKeys, pubKeys, privKeys, identities or all (default).", valueName: "type"))
    var type: ExportItemType?

    @Option(name: .customShort("f"), help: ArgumentHelp("Format: openssl, pkcs8, pkcs12, pkcs7, x509, pemseq or openssh2.", valueName: "format"))
    var format: ExportFormat?

    @Flag(name: .customShort("w"), help: "Wrap private keys under the passphrase (the openssl format; pkcs8 and pkcs12 always are).")
    var wrapped = false

    @Flag(name: .customShort("p"), help: "PEM armour for x509, pkcs7, pkcs8 and openssl output.")
    var pem = false

    @Option(name: [.customShort("P"), .customLong("passphrase")], parsing: .unconditional,
            help: ArgumentHelp("The passphrase protecting the backup (or the exported private keys or PKCS#12 file); prompted for when not given.", valueName: "passphrase"))
    var passphrase: String?

    @Option(name: .customShort("k"), help: ArgumentHelp("The keychain to export (the same as --keychain).", valueName: "keychain"))
    var sourceKeychain: String?

    @Flag(name: .customLong("force"), help: "Replace the output file if it exists (the new backup is written beside it, then renamed over it).")
    var force = false

    @OptionGroup var location: KeychainOption

    func validate() throws {
        if sourceKeychain != nil && location.keychain != nil { throw ValidationError("Give -k or --keychain, not both.") }
        if output?.isEmpty == true { throw ValidationError("The output file cannot be empty.") }
        if output == nil && !exportsItems {
            throw ValidationError("Missing expected option '-o <file>': the backup to write (give -t or -f to export certificates and keys to standard output).")
        }
        if wrapped, let format, ![.openssl, .openssh2, .pkcs8, .pkcs12].contains(format) {
            // security: "Don't know how to wrap in specified format/type", a usage error.
            throw ValidationError("-w wraps private keys in the openssl, openssh2, pkcs8 or pkcs12 formats, not \(format.rawValue).")
        }
    }

    /// Whether this is `security`'s certificate and key export rather than a backup.
    var exportsItems: Bool {
        type != nil || format != nil || wrapped || pem || output.map {
            ItemExport.fileExtensions.contains(URL(fileURLWithPath: $0).pathExtension.lowercased())
        } == true
    }

    func run() throws {
        let target = KeychainSession.targets(location.named([sourceKeychain].compactMap { $0 }))[0]
        guard let output, !exportsItems else {
            // security: "there is no wrapped SSHv2", so -w with openssh2 writes the wrapped openssl format.
            let chosen = wrapped && format == .openssh2 ? .openssl : format
            return try ItemExport.run(ItemExport.Request(type: type ?? .all, format: chosen, pem: pem, wrapped: wrapped,
                                                         output: output, passphrase: passphrase, force: force), target: target)
        }
        let context = "SecKeychainExport \(target.url.path)"
        let destination = URL(fileURLWithPath: output)
        // Before the passphrase is asked for: a refusal after typing it twice wastes the user's time.
        if !force { try BackupDestination.refuseExisting(destination, context: context) }
        let file = try KeychainSession.open(target)
        let secret = try PasswordArgument.resolve(passphrase ?? PasswordArgument.readMarker, prompt: "passphrase for the backup: ",
                                                  confirmPrompt: "retype passphrase for the backup: ", context: context)
        let count = try CommandFailure.about(target) { () throws(CommandFailure) -> Int in
            try BackupDestination.write(to: destination, replacing: force, context: context) { url throws(CommandFailure) in
                try KeychainAdministration.exportBackup(file, to: url, passphrase: secret, context: context)
            }
        }
        Console.out("\(count) item\(count == 1 ? "" : "s") exported.\n")
    }
}
