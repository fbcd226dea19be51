import Crypto
import _CryptoExtras
import Foundation

/// OpenSSL's traditional encrypted PEM ("Proc-Type: 4,ENCRYPTED" with a DEK-Info header), the
/// form of `security export -f openssl -w`. The key comes from the passphrase by OpenSSL's
/// EVP_BytesToKey (MD5, one round, the IV's first eight bytes as salt): weak by today's
/// standards, which is why `-f pkcs8` (PBKDF2) is the better choice; AES-256-CBC is used rather
/// than Apple's triple DES, which swift-crypto lacks, and every OpenSSL reads it.
enum WrappedOpenSSLKey {
    static func pem(der: [UInt8], label: String, passphrase: String) throws -> String {
        var generator = SystemRandomNumberGenerator()
        let iv = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let key = bytesToKey(password: Array(passphrase.utf8), salt: Array(iv.prefix(8)), length: 32)
        let ciphertext = try AES._CBC.encrypt(der, using: SymmetricKey(data: key), iv: AES._CBC.IV(ivBytes: iv))
        let ivHex = iv.map { String(format: "%02X", $0) }.joined()
        return PEMArmour.text(label: label, der: ciphertext,
                              headers: ["Proc-Type: 4,ENCRYPTED", "DEK-Info: AES-256-CBC,\(ivHex)"])
    }

    /// EVP_BytesToKey with MD5 and one round: D1 = MD5(password ‖ salt), Dn = MD5(Dn-1 ‖ password ‖ salt).
    static func bytesToKey(password: [UInt8], salt: [UInt8], length: Int) -> [UInt8] {
        var output: [UInt8] = []
        var previous: [UInt8] = []
        while output.count < length {
            previous = Array(Insecure.MD5.hash(data: previous + password + salt))
            output += previous
        }
        return Array(output.prefix(length))
    }
}
