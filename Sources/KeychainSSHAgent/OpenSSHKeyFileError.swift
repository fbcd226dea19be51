/// Why an OpenSSH private key file could not be read. The descriptions name the file's
/// structure and its cipher or KDF names only: never key bytes, never the passphrase.
package enum OpenSSHKeyFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No `-----BEGIN OPENSSH PRIVATE KEY-----` block, or its contents are not `openssh-key-v1`.
    case notAnOpenSSHKeyFile
    /// The structure is broken (truncated, a bad length, bad padding); what is wrong.
    case damaged(String)
    /// The passphrase does not decrypt the file (the check words differ, or AES-GCM's tag fails).
    case wrongPassphrase
    /// The file is encrypted and no passphrase (an empty one) was given.
    case passphraseRequired
    case unsupportedCipher(String)
    case unsupportedKDF(String)
    /// The KDF's rounds are above ``OpenSSHKeyFile/maximumRounds``.
    case tooManyRounds(UInt32)
    /// The file holds this many keys; only files of one key are read (as ssh-keygen writes them).
    case keyCount(UInt32)
    /// A key type the keychain does not hold.
    case unsupportedKeyType(String)

    package var description: String {
        switch self {
        case .notAnOpenSSHKeyFile:
            return "not an OpenSSH private key file (no \"-----BEGIN OPENSSH PRIVATE KEY-----\" block with openssh-key-v1 contents)"
        case .damaged(let what):
            return "the key file is damaged: \(what)"
        case .wrongPassphrase:
            return "incorrect passphrase for the key file"
        case .passphraseRequired:
            return "the key file is encrypted and no passphrase was given"
        case .unsupportedCipher(let name):
            return "the key file's cipher \(Self.shown(name)) is not supported (aes128-ctr, aes192-ctr, aes256-ctr, aes128-gcm@openssh.com, aes256-gcm@openssh.com and none are)"
        case .unsupportedKDF(let name):
            return "the key file's key derivation \(Self.shown(name)) is not supported (bcrypt and none are)"
        case .tooManyRounds(let rounds):
            return "the key file asks for \(rounds) bcrypt rounds, more than the \(OpenSSHKeyFile.maximumRounds) accepted"
        case .keyCount(let count):
            return "the key file holds \(count) keys; only files of one key are read"
        case .unsupportedKeyType(let type):
            return "the key file holds a \(Self.shown(type)) key, a type the keychain does not hold"
        }
    }

    /// A name read from the file, quoted, cut short and with anything but printable ASCII
    /// replaced, so that a hostile file cannot write control characters to the terminal.
    private static func shown(_ name: String) -> String {
        let printable = name.unicodeScalars.prefix(64).map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?" }
        return "\"" + String(printable) + (name.unicodeScalars.count > 64 ? "…" : "") + "\""
    }
}
