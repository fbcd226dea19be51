import ArgumentParser
import Foundation
import KeychainServices

/// Which stored key a key command means: by label (`-l`), tag (`-g`), private or public half.
struct KeySelection: ParsableArguments {
    @Option(name: .customShort("l"), help: ArgumentHelp("The key's label.", valueName: "label"))
    var label: String?

    @Option(name: [.customShort("g"), .customLong("tag")], help: ArgumentHelp("The key's application tag.", valueName: "tag"))
    var tag: String?

    @Flag(name: .customLong("public"), help: "The public key rather than the private key.")
    var publicKey = false

    var query: [String: Any] {
        var query: [String: Any] = [kSecClass as String: kSecClassKey,
                                    kSecAttrKeyClass as String: publicKey ? kSecAttrKeyClassPublic : kSecAttrKeyClassPrivate]
        if let label { query[kSecAttrLabel as String] = label }
        if let tag { query[kSecAttrApplicationTag as String] = Data(tag.utf8) }
        return query
    }

    /// The key selected. With --public and no public key item (an SSH key is stored as its
    /// private half only), the public half of the private key selected.
    func key(in target: KeychainSession.Target) throws(CommandFailure) -> SecKey {
        var query = self.query
        query[kSecReturnRef as String] = true
        var result: CFTypeRef?
        var status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound && publicKey {
            query[kSecAttrKeyClass as String] = kSecAttrKeyClassPrivate
            status = SecItemCopyMatching(query as CFDictionary, &result)
            result = (result as? SecKey).flatMap(SecKeyCopyPublicKey)
        }
        guard status == errSecSuccess, let key = result as? SecKey else {
            throw CommandFailure.status(status == errSecSuccess ? errSecItemNotFound : status, "SecItemCopyMatching").about(target)
        }
        return key
    }
}

/// `export-key`: writes one stored key to a file other tools read (keychainctl's own command;
/// `export` writes keychain backups).
struct ExportKey: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export-key",
        abstract: "Export a stored key as PEM or DER.",
        discussion: """
            Writes the key found by -l and/or -g as PKCS#8 (private keys) or SubjectPublicKeyInfo \
            (public keys, --public), PEM by default, to -o or standard output. The private key \
            leaves the keychain unencrypted: protect the file. No match exits 44 (errSecItemNotFound).
            """)

    @OptionGroup var selection: KeySelection

    @Option(name: .customShort("f"), help: ArgumentHelp("pem or der.", valueName: "format"))
    var format: KeyFiles.Encoding = .pem

    @Option(name: .customShort("o"), help: ArgumentHelp("The file to write (default: standard output).", valueName: "file"))
    var output: String?

    @OptionGroup var location: KeychainOption

    func validate() throws {
        if selection.label == nil && selection.tag == nil { throw ValidationError("Name the key with -l or -g.") }
    }

    func run() throws {
        let target = KeychainSession.targets(location.named([]))[0]
        _ = try KeychainSession.openForItems(target, accessGroup: nil)
        let key = try selection.key(in: target)
        let data: Data
        do { data = try KeyFiles.write(key, encoding: format) } catch {
            throw CommandFailure.general("export-key", "\(error)")
        }
        if let output {
            let url = URL(fileURLWithPath: output)
            guard FileManager.default.createFile(atPath: url.path, contents: data, attributes: [.posixPermissions: 0o600]) else {
                throw CommandFailure.status(errSecIO, "export-key \(output)")
            }
        } else {
            FileHandle.standardOutput.write(data)
        }
    }
}

/// `import-key`: stores a key read from a PEM or DER file.
struct ImportKey: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-key",
        abstract: "Import a key from a PEM or DER file.",
        discussion: """
            Reads an EC (P-256, P-384, P-521) or RSA key in PKCS#8, PKCS#1, SEC1 or \
            SubjectPublicKeyInfo form and stores it as a key item labelled -l and tagged -g. The \
            same key already stored exits 45 (errSecDuplicateItem).
            """)

    @Argument(help: ArgumentHelp("The key file.", valueName: "file"))
    var file: String

    @Option(name: .customShort("l"), help: ArgumentHelp("The label to give the key.", valueName: "label"))
    var label: String?

    @Option(name: [.customShort("g"), .customLong("tag")], help: ArgumentHelp("The application tag to give the key.", valueName: "tag"))
    var tag: String?

    @OptionGroup var location: KeychainOption

    func run() throws {
        let target = KeychainSession.targets(location.named([]))[0]
        _ = try KeychainSession.openForItems(target, accessGroup: nil)
        guard let contents = FileManager.default.contents(atPath: file) else { throw CommandFailure.status(errSecIO, "import-key \(file)") }
        let parsed: (external: Data, type: CFString, keyClass: CFString)
        do { parsed = try KeyFiles.read(contents) } catch {
            throw CommandFailure.status(errSecUnknownFormat, "import-key \(file)")
        }
        var error: Unmanaged<CFError>?
        guard let key = SecKeyCreateWithData(parsed.external as CFData, [kSecAttrKeyType as String: parsed.type,
                                                                          kSecAttrKeyClass as String: parsed.keyClass] as CFDictionary, &error) else {
            throw CommandFailure.status(errSecUnknownFormat, "import-key \(file)")
        }
        var attributes: [String: Any] = [kSecValueRef as String: key]
        if let label { attributes[kSecAttrLabel as String] = label }
        if let tag { attributes[kSecAttrApplicationTag as String] = Data(tag.utf8) }
        let status = SecItemAdd(attributes as CFDictionary, nil)
        guard status == errSecSuccess else { throw CommandFailure.status(status, "SecItemAdd").about(target) }
    }
}
