import Crypto
import _CryptoExtras
import Foundation

/// The ciphers of OpenSSH's private key files this reader and writer know (ssh-keygen -Z;
/// aes256-ctr is its default). The key and IV are the output of the file's KDF, key first.
/// chacha20-poly1305@openssh.com and the CBC ciphers are not among them: such a file is
/// refused by name (``OpenSSHKeyFileError/unsupportedCipher(_:)``).
enum OpenSSHCipher: String, CaseIterable, Sendable {
    case none
    case aes128CTR = "aes128-ctr"
    case aes192CTR = "aes192-ctr"
    case aes256CTR = "aes256-ctr"
    case aes128GCM = "aes128-gcm@openssh.com"
    case aes256GCM = "aes256-gcm@openssh.com"

    var keyLength: Int {
        switch self {
        case .none: return 0
        case .aes128CTR, .aes128GCM: return 16
        case .aes192CTR: return 24
        case .aes256CTR, .aes256GCM: return 32
        }
    }

    /// CTR's counter block is a whole AES block; OpenSSH's GCM takes a 12-byte nonce.
    var ivLength: Int {
        switch self {
        case .none: return 0
        case .aes128CTR, .aes192CTR, .aes256CTR: return 16
        case .aes128GCM, .aes256GCM: return 12
        }
    }

    /// What the private section is padded to: AES's block, or 8 without a cipher (OpenSSH's choice).
    var blockSize: Int { self == .none ? 8 : 16 }

    /// GCM's tag follows the encrypted section in the file.
    var tagLength: Int { isGCM ? 16 : 0 }

    private var isGCM: Bool { self == .aes128GCM || self == .aes256GCM }

    /// Decrypts the private section. A GCM tag that does not verify is a wrong passphrase, as
    /// OpenSSH reports it (a damaged file fails the same way; the two cannot be told apart).
    func decrypt(_ ciphertext: [UInt8], tag: [UInt8], key: [UInt8], iv: [UInt8]) throws(OpenSSHKeyFileError) -> [UInt8] {
        switch self {
        case .none:
            return ciphertext
        case .aes128CTR, .aes192CTR, .aes256CTR:
            guard let plain = try? AES._CTR.decrypt(ciphertext, using: SymmetricKey(data: key), nonce: AES._CTR.Nonce(nonceBytes: iv)) else {
                throw .damaged("the AES-CTR key or counter is not the cipher's size")
            }
            return Array(plain)
        case .aes128GCM, .aes256GCM:
            guard let nonce = try? AES.GCM.Nonce(data: iv),
                  let box = try? AES.GCM.SealedBox(nonce: nonce, ciphertext: ciphertext, tag: tag) else {
                throw .damaged("the AES-GCM nonce or tag is not the cipher's size")
            }
            guard let plain = try? AES.GCM.open(box, using: SymmetricKey(data: key)) else { throw .wrongPassphrase }
            return Array(plain)
        }
    }

    /// Encrypts the private section; the tag is empty but for GCM.
    func encrypt(_ plaintext: [UInt8], key: [UInt8], iv: [UInt8]) throws -> (ciphertext: [UInt8], tag: [UInt8]) {
        switch self {
        case .none:
            return (plaintext, [])
        case .aes128CTR, .aes192CTR, .aes256CTR:
            let sealed = try AES._CTR.encrypt(plaintext, using: SymmetricKey(data: key), nonce: AES._CTR.Nonce(nonceBytes: iv))
            return (Array(sealed), [])
        case .aes128GCM, .aes256GCM:
            let box = try AES.GCM.seal(plaintext, using: SymmetricKey(data: key), nonce: AES.GCM.Nonce(data: iv))
            return (Array(box.ciphertext), Array(box.tag))
        }
    }
}
