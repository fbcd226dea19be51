#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What ties an item's sealed attributes to the one sealed secret written with them.
///
/// The attributes and the secret are sealed separately (so that attribute-only reads never
/// decrypt a secret), and each is bound to its row. On their own, that would let someone who can
/// write the file put back an older `secret` column under the current attributes: the old
/// password would read as current, and a secret written before its access control was tightened
/// would read without authentication. So the sealed attributes also carry the binding: the
/// content nonce of the secret blob written with them (random for every write, and authenticated
/// by the blob's own tag, so it names exactly one blob) and whether that secret requires
/// authentication. A secret whose nonce or kind disagrees with its attributes is damage.
///
/// Whether a secret needs authentication is taken from here, which the item's writer decided
/// from the access control it stored, and never from the secret blob alone.
struct SecretBinding: Equatable {
    /// Bytes at the start of the attributes' plaintext (format ``ItemSealer/boundFormat``).
    static let encodedLength = 1 + nonceLength
    static let nonceLength = 12

    /// The content nonce of the secret blob; zeros when the item has no secret blob (tombstones).
    let nonce: [UInt8]
    let hasSecret: Bool
    let requiresAuthentication: Bool

    /// The binding of `sealedSecret`, a blob just sealed by ``ItemSealer``.
    init(sealedSecret: Data?) {
        guard let sealedSecret, let nonce = ItemSealer.contentNonce(sealedSecret) else {
            self.nonce = [UInt8](repeating: 0, count: Self.nonceLength)
            hasSecret = false
            requiresAuthentication = false
            return
        }
        self.nonce = nonce
        hasSecret = true
        requiresAuthentication = ItemSealer.isPresenceSealed(sealedSecret)
    }

    private init(nonce: [UInt8], hasSecret: Bool, requiresAuthentication: Bool) {
        self.nonce = nonce
        self.hasSecret = hasSecret
        self.requiresAuthentication = requiresAuthentication
    }

    /// Flags byte, then the nonce.
    var encoded: [UInt8] {
        [(hasSecret ? 1 : 0) | (requiresAuthentication ? 2 : 0)] + nonce
    }

    /// Reads a binding from the start of `plaintext`; returns it and where the attributes start.
    static func decode(_ plaintext: Data) throws(KeychainStoreError) -> (SecretBinding, Data.Index) {
        guard plaintext.count >= encodedLength else { throw .decode("an item's attributes are damaged") }
        let start = plaintext.startIndex
        let flags = plaintext[start]
        guard flags & ~3 == 0 else { throw .decode("an item's attributes are damaged") }
        // Copied through the bytes: a Data slice copied as a sequence goes byte by byte.
        let nonce = plaintext.withUnsafeBytes { [UInt8]($0[1..<encodedLength]) }
        let binding = SecretBinding(nonce: nonce, hasSecret: flags & 1 != 0, requiresAuthentication: flags & 2 != 0)
        return (binding, start + encodedLength)
    }

    /// Whether `sealedSecret` is the blob these attributes were written with.
    func matches(_ sealedSecret: Data?) -> Bool {
        guard let sealedSecret else { return !hasSecret }
        let start = 1 + ItemSealer.wrappedKeyLength
        guard hasSecret, ItemSealer.isPresenceSealed(sealedSecret) == requiresAuthentication,
              sealedSecret.count >= start + 28 else { return false }
        // Compared in place, through the bytes (a Data slice compared as a sequence goes byte by
        // byte through Data's subscript): this runs for every matched row of every read.
        return sealedSecret.withUnsafeBytes { blob in
            nonce.withUnsafeBytes { $0.elementsEqual(blob[start..<start + Self.nonceLength]) }
        }
    }
}
