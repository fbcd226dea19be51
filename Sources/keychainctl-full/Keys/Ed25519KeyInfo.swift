import Foundation

/// Ed25519 keys in the PKCS#8 and SubjectPublicKeyInfo forms of RFC 8410, which swift-crypto does
/// not read or write: both are a fixed DER prefix (the algorithm id-Ed25519, 1.3.101.112, with no
/// parameters) followed by the key's 32 bytes, so they are written and recognised by that prefix.
enum Ed25519KeyInfo {
    /// OneAsymmetricKey version 0, id-Ed25519, then the seed as an OCTET STRING in an OCTET STRING.
    static let privatePrefix = Data([0x30, 0x2E, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70,
                                     0x04, 0x22, 0x04, 0x20])
    /// SubjectPublicKeyInfo: id-Ed25519, then the key as a BIT STRING with no unused bits.
    static let publicPrefix = Data([0x30, 0x2A, 0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70, 0x03, 0x21, 0x00])

    static func pem(_ der: Data, isPrivate: Bool) -> String {
        let label = isPrivate ? "PRIVATE KEY" : "PUBLIC KEY"
        let body = der.base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN \(label)-----\n\(body)\n-----END \(label)-----\n"
    }

    /// The key's 32 bytes and whether it is private, from a PEM or DER file of either form.
    static func read(_ file: Data) -> (Data, isPrivate: Bool)? {
        var der = file
        if let text = String(data: file, encoding: .utf8), text.contains("-----BEGIN") {
            let body = text.split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("-----") }.joined()
            guard let decoded = Data(base64Encoded: body) else { return nil }
            der = decoded
        }
        for (prefix, isPrivate) in [(privatePrefix, true), (publicPrefix, false)]
        where der.count == prefix.count + 32 && der.prefix(prefix.count) == prefix {
            return (Data(der.suffix(32)), isPrivate)
        }
        return nil
    }
}
