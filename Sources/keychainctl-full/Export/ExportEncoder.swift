import Foundation
import KeychainServices

/// Turns the gathered items into the bytes of one file in the format `-f` names, with
/// `security export`'s rules: which items a format can carry, how many, and that a private key
/// never leaves the keychain in clear (`errSecKeyIsSensitive`): it is wrapped under the
/// passphrase (`-w`, or always for pkcs8, pkcs12 and in a PEM sequence).
struct ExportEncoder {
    let format: ExportFormat
    /// `-p`: PEM armour for the formats that are otherwise binary.
    let pem: Bool
    /// `-w`: private keys wrapped (for the openssl format; pkcs8 and pkcs12 always are).
    let wrapped: Bool

    static let context = "SecKeychainItemExport"

    /// The format `security` picks when `-f` is absent: a PEM sequence for several items, a DER
    /// certificate for one certificate, otherwise OpenSSL's key format.
    static func defaultFormat(for objects: [ExportObject]) -> ExportFormat {
        if objects.count > 1 { return .pemseq }
        return objects.first?.kind == .certificate ? .x509 : .openssl
    }

    /// Whether writing `objects` needs the passphrase (asked for only then).
    func needsPassphrase(_ objects: [ExportObject]) -> Bool {
        format == .pkcs12 || objects.contains { $0.kind == .privateKey }
    }

    /// Refuses what this format cannot carry, before any passphrase is asked for.
    func check(_ objects: [ExportObject]) throws(CommandFailure) {
        guard format.isSupported else {
            throw CommandFailure(status: errSecUnsupportedFormat, context: Self.context,
                                 message: "The \(format.rawValue) format is not supported by keychainctl export.",
                                 hint: "Use one of: \(ExportFormat.supported.map(\.rawValue).joined(separator: ", ")).")
        }
        guard !objects.isEmpty else {
            throw CommandFailure(status: errSecItemNotFound, context: Self.context,
                                 message: "The keychain holds no items of the type asked for (-t).",
                                 hint: "Check -t and -k; certificates and keys are added with import, import-key or create-keypair.")
        }
        let kinds = Set(objects.map(\.kind))
        func refuse(_ message: String, _ hint: String) -> CommandFailure {
            CommandFailure(status: errSecParam, context: Self.context, message: message, hint: hint)
        }
        switch format {
        case .x509:
            guard kinds == [.certificate] else { throw refuse("The x509 format holds a certificate, not keys.", "Use -t certs, or -f pemseq or pkcs12 for keys.") }
        case .pkcs7:
            guard kinds == [.certificate] else { throw refuse("The pkcs7 format holds certificates only.", "Use -t certs, or -f pkcs12 for identities.") }
        case .pkcs8:
            guard kinds == [.privateKey] else { throw refuse("The pkcs8 format holds a private key only.", "Use -t privKeys, or -f openssl or pemseq for public keys.") }
        case .openssl:
            guard !kinds.contains(.certificate) else { throw refuse("The openssl format holds keys, not certificates.", "Use -f x509, pemseq or pkcs7 for certificates.") }
        case .pkcs12:
            guard !kinds.contains(.publicKey) else { throw refuse("PKCS#12 files carry certificates and private keys, not public keys.", "Use -t identities, certs, privKeys or all, or -f pemseq for public keys.") }
            if pem { throw refuse("A PKCS#12 file is binary; -p does not apply to it.", "Leave out -p.") }
        case .openssh2:
            guard kinds == [.publicKey] else { throw refuse("The openssh2 format holds public keys only.", "Use -t pubKeys, or -w to write a private key in the wrapped openssl format.") }
        case .pemseq, .openssh1, .bsafe, .netscape, .raw, .rawkey:
            break
        }
        if [.x509, .openssl, .pkcs8].contains(format), objects.count > 1 {
            throw refuse("The \(format.rawValue) format holds one item and \(objects.count) were found.",
                         "Use -f pemseq, pkcs7 (certificates) or pkcs12 for several items.")
        }
        if format == .openssl, kinds.contains(.privateKey), !wrapped {
            throw CommandFailure(status: errSecKeyIsSensitive, context: Self.context,
                                 message: "A private key is exported only wrapped under a passphrase.",
                                 hint: "Give -w (or -f pkcs8 or pkcs12) and a passphrase with -P or at the prompt; keychainctl export-key writes a clear PKCS#8 file.")
        }
    }

    /// The file's bytes. `passphrase` is given whenever ``needsPassphrase(_:)`` said so.
    func encode(_ objects: [ExportObject], passphrase: String?) throws -> [UInt8] {
        let secret = passphrase ?? ""
        switch format {
        case .x509:
            let der = Array(SecCertificateCopyData(objects[0].certificate!) as Data)
            return pem ? Array(PEMArmour.text(label: "CERTIFICATE", der: der).utf8) : der
        case .pkcs7:
            let der = PKCS7CertificateBundle.encode(objects.map { Array(SecCertificateCopyData($0.certificate!) as Data) })
            return pem ? Array(PEMArmour.text(label: "PKCS7", der: der).utf8) : der
        case .pkcs8:
            let der = try PasswordBasedEncryption.encryptedPrivateKeyInfo(try KeyFiles.standard(objects[0].key!), password: secret)
            return pem ? Array(PEMArmour.text(label: "ENCRYPTED PRIVATE KEY", der: der).utf8) : der
        case .openssl:
            let (der, label) = try KeyFiles.traditional(objects[0].key!)
            if objects[0].kind == .privateKey {
                return Array(try WrappedOpenSSLKey.pem(der: der, label: label, passphrase: secret).utf8)
            }
            return pem ? Array(PEMArmour.text(label: label, der: der).utf8) : der
        case .pemseq:
            return try objects.flatMap { object -> [UInt8] in Array(try pemBlock(object, passphrase: secret).utf8) }
        case .pkcs12:
            return try pkcs12(objects, passphrase: secret)
        case .openssh2:
            return try objects.flatMap { object -> [UInt8] in
                Array(try OpenSSHPublicKey.line(object.key!, comment: object.label).utf8)
            }
        case .openssh1, .bsafe, .netscape, .raw, .rawkey:
            throw KeyFileError("unsupported format") // refused by check(_:) first
        }
    }

    private func pemBlock(_ object: ExportObject, passphrase: String) throws -> String {
        switch object.kind {
        case .certificate:
            return PEMArmour.text(label: "CERTIFICATE", der: SecCertificateCopyData(object.certificate!) as Data)
        case .publicKey:
            return PEMArmour.text(label: "PUBLIC KEY", der: try KeyFiles.standard(object.key!))
        case .privateKey:
            let der = try PasswordBasedEncryption.encryptedPrivateKeyInfo(try KeyFiles.standard(object.key!), password: passphrase)
            return PEMArmour.text(label: "ENCRYPTED PRIVATE KEY", der: der)
        }
    }

    /// Keys and certificates whose public keys match share a localKeyID (the public key's
    /// SHA-1), which is how PKCS#12 readers rebuild the identity.
    private func pkcs12(_ objects: [ExportObject], passphrase: String) throws -> [UInt8] {
        let keyHashes = Set(objects.filter { $0.kind == .privateKey }.compactMap(\.publicKeyHash))
        var writer = PKCS12Writer()
        for object in objects {
            let paired = object.publicKeyHash.flatMap { keyHashes.contains($0) ? $0 : nil }
            let attributes = PKCS12Writer.Attributes(friendlyName: object.label, localKeyID: paired)
            switch object.kind {
            case .certificate: writer.add(certificate: Array(SecCertificateCopyData(object.certificate!) as Data), attributes)
            case .privateKey: writer.add(privateKeyInfo: try KeyFiles.standard(object.key!), attributes)
            case .publicKey: break // refused by check(_:)
            }
        }
        return try writer.write(password: passphrase)
    }
}
