package import Foundation

/// An OpenSSH private key file (`-----BEGIN OPENSSH PRIVATE KEY-----`, the format of
/// PROTOCOL.key in OpenSSH's sources, which ssh-keygen writes by default), read in two steps:
/// ``init(contents:)`` checks the outer structure and reads what is public (the cipher, the
/// KDF, the public key), and ``decrypt(passphrase:)`` derives the key, decrypts the private
/// section and reads the private key from it, in the serialization ADD_IDENTITY uses
/// (``SSHPrivateKey/read(from:)``). ``armoured(_:comment:passphrase:rounds:)`` writes one.
///
/// The layout, after base64: `"openssh-key-v1\0"`, string cipher name, string KDF name,
/// string KDF options (for bcrypt: string salt, uint32 rounds), uint32 number of keys, that
/// many string public keys, string private section (encrypted), and for AES-GCM its 16-byte
/// tag. The private section, decrypted: two equal random uint32 check words (unequal means a
/// wrong passphrase), each key and string comment, then the bytes 1, 2, 3, … up to a multiple
/// of the cipher's block size.
package struct OpenSSHKeyFile: Sendable {
    /// The public key blob the file's header holds.
    package let publicKeyBlob: [UInt8]
    /// Whether ``decrypt(passphrase:)`` needs a passphrase.
    package var isEncrypted: Bool { cipher != .none }

    let cipher: OpenSSHCipher
    /// The bcrypt salt and rounds; nil without a KDF.
    let bcrypt: (salt: [UInt8], rounds: Int)?
    let encryptedSection: [UInt8]
    let tag: [UInt8]

    static let beginLine = "-----BEGIN OPENSSH PRIVATE KEY-----"
    static let endLine = "-----END OPENSSH PRIVATE KEY-----"
    static let magic = Array("openssh-key-v1".utf8) + [0]
    /// ssh-keygen's line length for the base64 body.
    static let lineLength = 70

    /// The most bcrypt rounds a file may ask for: 64 times ssh-keygen's default and 10 times the
    /// `-a 100` that hardening guides recommend. The cost is linear in the rounds: Debian's
    /// ssh-keygen takes 0.9 s to read a file of 100 rounds on the test machine, and this
    /// reader in a debug build 1.7 s for 16, so the bound holds a hostile file to seconds or
    /// minutes rather than the days 2^32 rounds would take.
    package static let maximumRounds = 1024
    /// ssh-keygen's default for `-a` (ssh-keygen(1)).
    package static let defaultRounds = 16
    /// A larger file is no key file: an RSA key of 16384 bits is about 13 KB of text.
    static let maximumFileSize = 1 << 20
    static let saltLength = 16

    /// Reads the file's outer structure. Nothing here is secret; nothing is decrypted yet.
    package init(contents: Data) throws(OpenSSHKeyFileError) {
        guard contents.count <= Self.maximumFileSize else { throw .damaged("it is larger than \(Self.maximumFileSize) bytes") }
        let binary = try Self.dearmour(contents)
        guard binary.starts(with: Self.magic) else { throw .notAnOpenSSHKeyFile }
        var reader = SSHWireReader(binary.dropFirst(Self.magic.count))
        do {
            let cipherName = try reader.readText()
            let kdfName = try reader.readText()
            let kdfOptions = try reader.readString()
            guard let cipher = OpenSSHCipher(rawValue: cipherName) else { throw OpenSSHKeyFileError.unsupportedCipher(cipherName) }
            self.cipher = cipher
            bcrypt = try Self.readKDF(name: kdfName, options: kdfOptions, cipher: cipher)
            let count = try reader.readUInt32()
            guard count == 1 else { throw OpenSSHKeyFileError.keyCount(count) }
            publicKeyBlob = try reader.readString()
            encryptedSection = try reader.readString()
            guard encryptedSection.count >= cipher.blockSize, encryptedSection.count % cipher.blockSize == 0 else {
                throw OpenSSHKeyFileError.damaged("the private section is not a whole number of cipher blocks")
            }
            guard reader.remainingCount == cipher.tagLength else {
                throw OpenSSHKeyFileError.damaged(reader.remainingCount < cipher.tagLength ? "it ends early" : "bytes follow the private section")
            }
            tag = reader.readRest()
        } catch let error as OpenSSHKeyFileError {
            throw error
        } catch {
            throw Self.damaged(by: error, where: "")
        }
    }

    /// Derives the key from `passphrase` (ignored when the file is not encrypted), decrypts and
    /// reads the private key and its comment. The key read must be the header's public key.
    package func decrypt(passphrase: [UInt8]) throws(OpenSSHKeyFileError) -> (key: SSHPrivateKey, comment: String) {
        var plain: [UInt8]
        if let bcrypt {
            guard !passphrase.isEmpty else { throw .passphraseRequired }
            guard let derived = BcryptPBKDF.derive(passphrase: passphrase, salt: bcrypt.salt, rounds: bcrypt.rounds,
                                                   length: cipher.keyLength + cipher.ivLength) else {
                throw .damaged("the key derivation's parameters are out of range")
            }
            plain = try cipher.decrypt(encryptedSection, tag: tag, key: Array(derived.prefix(cipher.keyLength)),
                                       iv: Array(derived.suffix(cipher.ivLength)))
        } else {
            plain = encryptedSection
        }
        defer { plain.withUnsafeMutableBufferPointer { $0.update(repeating: 0) } }
        return try Self.readPrivateSection(plain, blockSize: cipher.blockSize, encrypted: isEncrypted, publicKeyBlob: publicKeyBlob)
    }

    /// The base64 body between the armour lines, decoded.
    private static func dearmour(_ contents: Data) throws(OpenSSHKeyFileError) -> [UInt8] {
        guard let text = String(data: contents, encoding: .utf8) else { throw .notAnOpenSSHKeyFile }
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let begin = lines.firstIndex(of: beginLine) else { throw .notAnOpenSSHKeyFile }
        guard let end = lines[begin...].firstIndex(of: endLine) else { throw .damaged("it has no \(endLine) line") }
        let body = lines[(begin + 1)..<end].joined()
        guard let decoded = Data(base64Encoded: body) else { throw .damaged("its body is not base64") }
        return Array(decoded)
    }

    /// The KDF's parameters: none for an unencrypted file, bcrypt's salt and rounds otherwise.
    private static func readKDF(name: String, options: [UInt8], cipher: OpenSSHCipher) throws(OpenSSHKeyFileError) -> (salt: [UInt8], rounds: Int)? {
        switch name {
        case "none":
            guard cipher == .none else { throw .damaged("an encrypted file without a key derivation") }
            guard options.isEmpty else { throw .damaged("options for no key derivation") }
            return nil
        case "bcrypt":
            guard cipher != .none else { throw .damaged("a key derivation for an unencrypted file") }
            var reader = SSHWireReader(options)
            guard let salt = try? reader.readString(), let rounds = try? reader.readUInt32(), reader.isAtEnd else {
                throw .damaged("the bcrypt options are malformed")
            }
            guard !salt.isEmpty, salt.count <= 1024 else { throw .damaged("the bcrypt salt is empty or too long") }
            guard rounds >= 1 else { throw .damaged("bcrypt with no rounds") }
            guard rounds <= maximumRounds else { throw .tooManyRounds(rounds) }
            return (salt, Int(rounds))
        default:
            throw .unsupportedKDF(name)
        }
    }

    private static func readPrivateSection(_ plain: [UInt8], blockSize: Int, encrypted: Bool,
                                           publicKeyBlob: [UInt8]) throws(OpenSSHKeyFileError) -> (key: SSHPrivateKey, comment: String) {
        var reader = SSHWireReader(plain)
        do {
            guard try reader.readUInt32() == reader.readUInt32() else {
                // Random words that should match: a wrong key decrypted them to noise.
                throw encrypted ? OpenSSHKeyFileError.wrongPassphrase : .damaged("its check words differ")
            }
            var peek = reader
            let type = try peek.readText()
            guard SSHKeyType.all.contains(type) else { throw OpenSSHKeyFileError.unsupportedKeyType(type) }
            let key = try SSHPrivateKey.read(from: &reader)
            let comment = try reader.readText()
            let padding = reader.readRest()
            guard padding.count < blockSize, padding.enumerated().allSatisfy({ $0.element == UInt8($0.offset + 1) }) else {
                throw OpenSSHKeyFileError.damaged("the private section's padding is wrong")
            }
            guard key.publicKeyBlob == publicKeyBlob else {
                throw OpenSSHKeyFileError.damaged("the private key is not the header's public key")
            }
            return (key, comment)
        } catch let error as OpenSSHKeyFileError {
            throw error
        } catch {
            throw Self.damaged(by: error, where: " in the private section")
        }
    }

    /// A codec error as a damaged file: truncated or malformed, never with the bytes themselves.
    private static func damaged(by error: any Error, where place: String) -> OpenSSHKeyFileError {
        switch error as? SSHWireError {
        case .truncated: return .damaged("it ends early" + place)
        case .malformed(let what): return .damaged(what + place)
        case nil: return .damaged("unreadable" + place)
        }
    }
}
