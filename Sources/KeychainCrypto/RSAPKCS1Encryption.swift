import Crypto
package import Foundation

/// RSAES-PKCS1-v1_5's padding (RFC 8017 §7.2), for the RSA keys swift-crypto cannot hold
/// (``RSAPrivateNumbers``); keys swift-crypto holds use its own.
package enum RSAPKCS1Encryption {
    /// `00 02 PS 00 M` for a modulus of `size` bytes, PS being at least eight random non-zero bytes.
    package static func encode(_ message: Data, size: Int) throws(PrimitiveError) -> Data {
        guard size >= 11, message.count <= size - 11 else {
            throw .parameter("the plaintext is longer than this key and padding can encrypt")
        }
        var padding = [UInt8]()
        padding.reserveCapacity(size - message.count - 3)
        while padding.count < size - message.count - 3 {
            let bytes = SymmetricKey(size: .bits256).withUnsafeBytes { [UInt8]($0) }
            padding.append(contentsOf: bytes.filter { $0 != 0 }.prefix(size - message.count - 3 - padding.count))
        }
        return Data([0, 2]) + Data(padding) + Data([0]) + message
    }

    /// The message of a decrypted block, or nil when its padding is not `00 02 PS 00 M` with
    /// eight or more bytes of PS. Every flaw gives the same nil, as the caller's error does
    /// (Bleichenbacher's attack feeds on telling them apart); the timing is not made uniform.
    package static func decode(_ block: Data) -> Data? {
        let em = [UInt8](block)
        guard em.count >= 11 else { return nil }
        var good = em[0] == 0 ? 1 : 0
        good &= em[1] == 2 ? 1 : 0
        var separator = 0
        for index in 2..<em.count where separator == 0 && em[index] == 0 { separator = index }
        good &= separator >= 10 ? 1 : 0
        guard good == 1 else { return nil }
        return Data(em[(separator + 1)...])
    }
}
