import ArgumentParser

/// `export -t`: which items of the keychain are exported, in `security`'s words.
enum ExportItemType: String, ExpressibleByArgument, CaseIterable {
    /// Certificates.
    case certs
    /// Private and public keys.
    case allKeys
    case pubKeys
    case privKeys
    /// Certificates with their private keys.
    case identities
    /// Certificates and private keys (not public keys, which PKCS#12 cannot carry), `security`'s default.
    case all
}

/// `export -f`: the file format, in `security`'s words.
enum ExportFormat: String, ExpressibleByArgument, CaseIterable {
    /// Keys as OpenSSL's traditional files: PKCS#1 or SEC1 private keys (only wrapped, `-w`:
    /// an encrypted PEM with a DEK-Info header), SubjectPublicKeyInfo public keys.
    case openssl
    /// A PKCS#8 private key, always encrypted with the passphrase (EncryptedPrivateKeyInfo).
    case pkcs8
    /// A PKCS#12 file of certificates and private keys.
    case pkcs12
    /// A certificates-only PKCS#7 SignedData.
    case pkcs7
    /// One DER certificate.
    case x509
    /// PEM blocks one after another: certificates, public keys, encrypted private keys.
    case pemseq
    /// Public keys as OpenSSH lines (`ssh-rsa …`, `ecdsa-sha2-nistp256 …`); with -w a private key
    /// is written in the wrapped openssl format instead, as `security` does.
    case openssh2
    // Formats `security` names that are not written here.
    case openssh1, bsafe, netscape, raw, rawkey

    /// The formats written; the others are refused with errSecUnsupportedFormat.
    static let supported: [ExportFormat] = [.openssl, .pkcs8, .pkcs12, .pkcs7, .x509, .pemseq, .openssh2]
    var isSupported: Bool { Self.supported.contains(self) }
}
