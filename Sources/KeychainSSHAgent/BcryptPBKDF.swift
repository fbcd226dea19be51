import Crypto

/// OpenBSD's bcrypt_pbkdf, the key derivation of OpenSSH's encrypted private key files
/// (PROTOCOL.key, kdf name `bcrypt`): PBKDF2's structure with SHA-512 as the pseudo-random
/// function's hash and bcrypt's expensive Blowfish key schedule as its core (``Blowfish``).
///
/// Each round of each 32-byte output block runs 129 Blowfish key schedules, so the cost grows
/// linearly with `rounds`, which comes from the file: callers bound it first
/// (``OpenSSHKeyFile/maximumRounds``).
enum BcryptPBKDF {
    /// bcrypt's fixed plaintext, encrypted 64 times under the derived state.
    private static let magic = Array("OxychromaticBlowfishSwatDynamite".utf8)
    private static let hashLength = 32

    /// `length` bytes derived from `passphrase` and `salt`. Nil for what OpenBSD's function
    /// refuses too: an empty passphrase or salt, no rounds, no output or more than 1024 bytes.
    static func derive(passphrase: [UInt8], salt: [UInt8], rounds: Int, length: Int) -> [UInt8]? {
        guard !passphrase.isEmpty, !salt.isEmpty, rounds >= 1, length >= 1, length <= hashLength * hashLength else { return nil }
        let hashedPassphrase = Array(SHA512.hash(data: passphrase))
        // The output is spread: byte i of block n lands at i * stride + n, so that every
        // block (and so every round) is needed for any part of the key.
        let stride = (length + hashLength - 1) / hashLength
        let perBlock = (length + stride - 1) / stride
        var key = [UInt8](repeating: 0, count: length)
        var remaining = length
        var blockNumber: UInt32 = 1
        while remaining > 0 {
            let counter = [UInt8(blockNumber >> 24), UInt8(blockNumber >> 16 & 0xFF), UInt8(blockNumber >> 8 & 0xFF), UInt8(blockNumber & 0xFF)]
            var hashedSalt = Array(SHA512.hash(data: salt + counter))
            var roundOutput = hash(hashedPassphrase: hashedPassphrase, hashedSalt: hashedSalt)
            var block = roundOutput
            for _ in 1..<rounds {
                hashedSalt = Array(SHA512.hash(data: roundOutput))
                roundOutput = hash(hashedPassphrase: hashedPassphrase, hashedSalt: hashedSalt)
                for index in block.indices { block[index] ^= roundOutput[index] }
            }
            var written = 0
            for index in 0..<min(perBlock, remaining) {
                let destination = index * stride + Int(blockNumber - 1)
                if destination >= length { break }
                key[destination] = block[index]
                written += 1
            }
            remaining -= written
            blockNumber += 1
        }
        return key
    }

    /// bcrypt's core on SHA-512 digests: a Blowfish state keyed by both 64 times over, then
    /// the magic text encrypted 64 times; its words written little-endian.
    static func hash(hashedPassphrase: [UInt8], hashedSalt: [UInt8]) -> [UInt8] {
        var cipher = Blowfish()
        cipher.expand(key: hashedPassphrase, salt: hashedSalt)
        for _ in 0..<64 {
            cipher.expand(key: hashedSalt)
            cipher.expand(key: hashedPassphrase)
        }
        var words = (0..<8).map { index in
            magic[4 * index..<4 * index + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        }
        for _ in 0..<64 {
            for block in 0..<4 {
                var left = words[2 * block], right = words[2 * block + 1]
                cipher.encrypt(&left, &right)
                words[2 * block] = left
                words[2 * block + 1] = right
            }
        }
        return words.flatMap { word in [UInt8(word & 0xFF), UInt8(word >> 8 & 0xFF), UInt8(word >> 16 & 0xFF), UInt8(word >> 24)] }
    }
}
