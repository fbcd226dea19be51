import Foundation

extension OpenSSHKeyFile {
    /// The key as an OpenSSH private key file, as ssh-keygen writes one: unencrypted when
    /// `passphrase` is nil or empty, else with aes256-ctr (ssh-keygen's default cipher) under a
    /// key from bcrypt with a fresh 16-byte salt and `rounds` rounds.
    package static func armoured(_ key: SSHPrivateKey, comment: String, passphrase: [UInt8]?,
                                 rounds: Int = defaultRounds) throws -> String {
        let encrypting = !(passphrase ?? []).isEmpty
        let cipher: OpenSSHCipher = encrypting ? .aes256CTR : .none
        var random = SystemRandomNumberGenerator()

        var kdfOptions = SSHWireWriter()
        var derived: [UInt8] = []
        if let passphrase, encrypting {
            precondition((1...maximumRounds).contains(rounds), "bcrypt rounds outside 1...\(maximumRounds)")
            let salt = (0..<saltLength).map { _ in UInt8.random(in: 0...255, using: &random) }
            kdfOptions.writeString(salt)
            kdfOptions.writeUInt32(UInt32(rounds))
            derived = BcryptPBKDF.derive(passphrase: passphrase, salt: salt, rounds: rounds,
                                         length: cipher.keyLength + cipher.ivLength) ?? []
        }

        var section = SSHWireWriter()
        let check = UInt32.random(in: 0...UInt32.max, using: &random)
        section.writeUInt32(check)
        section.writeUInt32(check)
        key.write(to: &section)
        section.writeString(comment)
        var padding: UInt8 = 1
        while section.bytes.count % cipher.blockSize != 0 {
            section.writeByte(padding)
            padding += 1
        }
        var plain = section.bytes
        defer { plain.withUnsafeMutableBufferPointer { $0.update(repeating: 0) } }
        let (sealed, tag) = try cipher.encrypt(plain, key: Array(derived.prefix(cipher.keyLength)),
                                               iv: Array(derived.suffix(cipher.ivLength)))

        var file = SSHWireWriter()
        for byte in magic { file.writeByte(byte) }
        file.writeString(cipher.rawValue)
        file.writeString(encrypting ? "bcrypt" : "none")
        file.writeString(kdfOptions.bytes)
        file.writeUInt32(1)
        file.writeString(key.publicKeyBlob)
        file.writeString(sealed)
        for byte in tag { file.writeByte(byte) }

        let base64 = Data(file.bytes).base64EncodedString()
        var lines = [beginLine]
        var start = base64.startIndex
        while start < base64.endIndex {
            let end = base64.index(start, offsetBy: lineLength, limitedBy: base64.endIndex) ?? base64.endIndex
            lines.append(String(base64[start..<end]))
            start = end
        }
        lines.append(endLine)
        return lines.joined(separator: "\n") + "\n"
    }
}
