#if Sync  // built only with the Sync trait (Package.swift)
import Crypto
import Foundation

/// What identifies a device of a sync group: an Ed25519 key with which it signs the statements
/// and key shares it makes, and an X25519 key to which group keys are wrapped. Its id and its
/// fingerprint are computed from the two public keys, so neither can be chosen by the server:
/// a row or statement whose id does not match its keys is refused (docs/sync.md, "Trust").
struct DeviceIdentity: Sendable, Equatable, Hashable {
    let signingKey: Data
    let agreementKey: Data

    /// The two public keys, signing first, as statements carry them.
    static let encodedLength = 64

    init(signingKey: Data, agreementKey: Data) throws(SyncError) {
        guard signingKey.count == 32, agreementKey.count == 32,
              (try? Curve25519.Signing.PublicKey(rawRepresentation: signingKey)) != nil,
              (try? Curve25519.KeyAgreement.PublicKey(rawRepresentation: agreementKey)) != nil else {
            throw .crypto("a device's public keys are malformed")
        }
        self.signingKey = signingKey
        self.agreementKey = agreementKey
    }

    init(encoded: Data) throws(SyncError) {
        guard encoded.count == DeviceIdentity.encodedLength else { throw .crypto("a device's public keys have the wrong length") }
        try self.init(signingKey: Data(encoded.prefix(32)), agreementKey: Data(encoded.suffix(32)))
    }

    var encoded: Data { signingKey + agreementKey }

    /// The device's id in the database: 16 bytes of a hash of its keys, in hex.
    var id: String {
        let digest = SHA256.hash(data: Data("swift-keychain sync device id".utf8) + encoded)
        return digest.prefix(16).map { String(format: "%02x", $0) }.joined()
    }

    /// What a person compares between two machines before approving one.
    var fingerprint: String { Fingerprint.of(Data("device".utf8) + encoded) }

    func verify(_ signature: Data, of message: Data) -> Bool {
        guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: signingKey) else { return false }
        return key.isValidSignature(signature, for: message)
    }

    var agreementPublicKey: Curve25519.KeyAgreement.PublicKey {
        // Checked in init.
        try! Curve25519.KeyAgreement.PublicKey(rawRepresentation: agreementKey)
    }
}

/// This device's own private keys.
struct DeviceKeys: Sendable {
    let signing: Curve25519.Signing.PrivateKey
    let agreement: Curve25519.KeyAgreement.PrivateKey

    var identity: DeviceIdentity {
        // Keys made by swift-crypto are always well-formed.
        try! DeviceIdentity(signingKey: signing.publicKey.rawRepresentation, agreementKey: agreement.publicKey.rawRepresentation)
    }

    func sign(_ message: Data) throws(SyncError) -> Data {
        do { return try signing.signature(for: message) } catch { throw .crypto("signing failed") }
    }
}

/// Fingerprints people compare by eye: the first ten bytes (80 bits) of a SHA-256, in five
/// groups of four hex digits. Eighty bits keep a server from grinding a key of its own whose
/// fingerprint matches the one a joining device printed, in the minutes a join takes.
enum Fingerprint {
    static let byteCount = 10

    static func of(_ data: Data) -> String {
        grouped(SHA256.hash(data: data).prefix(byteCount).map { String(format: "%02x", $0) }.joined())
    }

    /// `text` as a fingerprint in its canonical form (lowercase, dashes between the groups), or
    /// nil when it is not one; people may type it without the dashes or in capitals.
    static func normalized(_ text: String) -> String? {
        let hex = text.lowercased().filter { $0 != "-" }
        guard hex.count == byteCount * 2, hex.allSatisfy(\.isHexDigit) else { return nil }
        return grouped(hex)
    }

    private static func grouped(_ hex: String) -> String {
        var groups: [Substring] = []
        var rest = Substring(hex)
        while !rest.isEmpty {
            groups.append(rest.prefix(4))
            rest = rest.dropFirst(4)
        }
        return groups.joined(separator: "-")
    }
}
#endif
