/// The writing side of ``SSHPrivateKey/read(from:)``: the key in OpenSSH's private key
/// serialization (the body of an ADD_IDENTITY, and of an OpenSSH key file's private section),
/// and its public key blob (RFC 4253 section 6.6, RFC 5656 section 3.1, RFC 8709).
extension SSHPrivateKey {
    /// The key's type name, as the serialization and the public key blob begin.
    package var keyType: String {
        switch self {
        case .ecdsa(let curve, _, _): return curve.keyType
        case .rsa: return SSHKeyType.rsa
        case .ed25519: return SSHKeyType.ed25519
        }
    }

    /// Writes the key as ``read(from:)`` reads it.
    package func write(to writer: inout SSHWireWriter) {
        writer.writeString(keyType)
        switch self {
        case .ecdsa(let curve, let point, let scalar):
            writer.writeString(curve.rawValue)
            writer.writeString(point)
            writer.writePositiveMPInt(scalar)
        case .rsa(let n, let e, let d, let iqmp, let p, let q):
            for part in [n, e, d, iqmp, p, q] { writer.writePositiveMPInt(part) }
        case .ed25519(let publicKey, let seed):
            writer.writeString(publicKey)
            writer.writeString(seed + publicKey)
        }
    }

    /// The public key blob, from the key's own parts (no `SecKey` needed, so it exists for keys
    /// the keychain cannot hold too, such as RSA below 1024 bits).
    package var publicKeyBlob: [UInt8] {
        var writer = SSHWireWriter()
        writer.writeString(keyType)
        switch self {
        case .ecdsa(let curve, let point, _):
            writer.writeString(curve.rawValue)
            writer.writeString(point)
        case .rsa(let n, let e, _, _, _, _):
            writer.writePositiveMPInt(e)
            writer.writePositiveMPInt(n)
        case .ed25519(let publicKey, _):
            writer.writeString(publicKey)
        }
        return writer.bytes
    }
}
