#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Crypto

/// Encrypts an item's two parts (attributes, secret) with AES-256-GCM under per-item keys, each
/// wrapped by the item's protection-class key. A part's key is drawn fresh whenever the part is
/// sealed, except that rewriting the attributes of a row in place under the same class keeps
/// their key and its wrapping (``ItemKey``).
///
/// A sealed part is: format byte ‖ wrapped key (nonce, 32-byte key, tag = 60 bytes) ‖ sealed
/// content (nonce ‖ ciphertext ‖ tag). The row's identity (table, persistent reference) is
/// authenticated data of the content, and the protection class is authenticated data of the key
/// wrap, so a blob copied to another row or relabelled with another class fails to open.
///
/// Format bytes: 1, a plain part; 2, a secret whose plaintext is itself sealed to the presence
/// key (``PresenceSeal``); 3, attributes whose plaintext begins with the ``SecretBinding`` of the
/// secret written with them (every attribute blob written since schema 5; 1 is still read, for
/// items not written since). The format byte is authenticated with the content.
enum ItemSealer {
    enum Part: String { case attributes = "meta", secret = "secret" }

    static let wrappedKeyLength = 60

    static let plainFormat: UInt8 = 1
    static let presenceFormat: UInt8 = 2
    static let boundFormat: UInt8 = 3

    /// Whether a sealed secret also needs the presence key (format 2).
    static func isPresenceSealed(_ sealed: Data?) -> Bool { sealed?.first == presenceFormat }

    /// The content nonce of a sealed part (random for every seal), or nil when it is too short.
    static func contentNonce(_ sealed: Data) -> [UInt8]? {
        let start = 1 + wrappedKeyLength
        guard sealed.count >= start + 28 else { return nil }
        return sealed.withUnsafeBytes { [UInt8]($0[start..<start + SecretBinding.nonceLength]) }
    }

    /// A part's item key as it was opened, with the wrapping it came in. A later seal of the
    /// same part of the same row under the same class may reuse both: the wrapping's
    /// authenticated data names exactly those (part, table, persistent reference, class), so
    /// the wrapping stays valid, and only the content is sealed again under a fresh nonce.
    /// (Random 96-bit nonces keep AES-GCM safe for far more seals per key than an item sees.)
    struct ItemKey {
        fileprivate let wrapped: Data
        fileprivate let key: SymmetricKey
        fileprivate let part: Part
        fileprivate let table: String
        fileprivate let persistentRef: Data
        fileprivate let protection: ProtectionClass

        fileprivate func fits(_ part: Part, _ table: String, _ persistentRef: Data, _ protection: ProtectionClass) -> Bool {
            self.part == part && self.protection == protection && self.persistentRef == persistentRef && self.table == table
        }
    }

    /// Seals `plaintext` as `part` of the row. With `reusing` the key of that same part, row and
    /// class, its wrapping is kept and the key seals the new content (one seal instead of two:
    /// an update that keeps the item's class); otherwise a fresh item key is drawn and wrapped.
    /// The random bytes come from `reserve` (``RandomReserve/bytes(_:from:)``).
    static func seal(_ plaintext: Data, part: Part, table: String, persistentRef: Data,
                     protection: ProtectionClass, classKey: SymmetricKey,
                     format: UInt8 = plainFormat, reusing kept: ItemKey? = nil,
                     reserve: RandomReserve? = nil) throws(KeychainStoreError) -> Data {
        do {
            let wrapped: Data, itemKey: SymmetricKey, contentNonce: AES.GCM.Nonce
            if let kept, kept.fits(part, table, persistentRef, protection) {
                wrapped = kept.wrapped
                itemKey = kept.key
                contentNonce = try AES.GCM.Nonce(data: try RandomReserve.bytes(12, from: reserve))
            } else {
                // The item key and both nonces from one draw (the write's reserve, or one system
                // call of their own); the copy here is wiped once the key is made and wrapped.
                var random = try RandomReserve.bytes(32 + 12 + 12, from: reserve)
                defer { SecretBuffer.wipe(&random) }
                itemKey = SymmetricKey(data: random[0..<32])
                contentNonce = try AES.GCM.Nonce(data: random[32..<44])
                wrapped = try wrap(random[0..<32], part: part, table: table, persistentRef: persistentRef,
                                   protection: protection, classKey: classKey, nonce: AES.GCM.Nonce(data: random[44..<56]))
            }
            let content = try AES.GCM.seal(plaintext, using: itemKey, nonce: contentNonce,
                                           authenticating: contentAAD(part, table, persistentRef, format))
            // One buffer, then one Data: the format byte, the wrapped key, the content box.
            var out: [UInt8] = []
            out.reserveCapacity(1 + wrappedKeyLength + 28 + plaintext.count)
            out.append(format)
            out.append(bytesOf: wrapped)
            out.append(bytesOf: content.combined!)
            return Data(out)
        } catch {
            throw .allocate("encryption failed")
        }
    }

    static func open(_ sealed: Data, part: Part, table: String, persistentRef: Data,
                     protection: ProtectionClass, classKey: SymmetricKey) throws(KeychainStoreError) -> Data {
        try openKeepingKey(sealed, part: part, table: table, persistentRef: persistentRef,
                           protection: protection, classKey: classKey).plaintext
    }

    /// ``open(_:part:table:persistentRef:protection:classKey:)``, also handing back the item key
    /// for a later ``seal(_:part:table:persistentRef:protection:classKey:format:reusing:reserve:)``.
    static func openKeepingKey(_ sealed: Data, part: Part, table: String, persistentRef: Data,
                               protection: ProtectionClass, classKey: SymmetricKey) throws(KeychainStoreError) -> (plaintext: Data, key: ItemKey) {
        let (wrapped, content) = try split(sealed, part)
        let itemKey = try unwrap(wrapped, part: part, table: table, persistentRef: persistentRef,
                                 protection: protection, classKey: classKey)
        do {
            let box = try AES.GCM.SealedBox(combined: content)
            let plaintext = try AES.GCM.open(box, using: itemKey, authenticating: contentAAD(part, table, persistentRef, sealed.first!))
            return (plaintext, ItemKey(wrapped: wrapped, key: itemKey, part: part, table: table,
                                       persistentRef: persistentRef, protection: protection))
        } catch {
            throw .decode("an item failed its integrity check")
        }
    }

    /// Re-wraps the item key of a sealed part for another protection class; the content is kept.
    static func rewrap(_ sealed: Data, part: Part, table: String, persistentRef: Data,
                       from old: ProtectionClass, oldKey: SymmetricKey,
                       to new: ProtectionClass, newKey: SymmetricKey) throws(KeychainStoreError) -> Data {
        let (wrapped, content) = try split(sealed, part)
        let itemKey = try unwrap(wrapped, part: part, table: table, persistentRef: persistentRef,
                                 protection: old, classKey: oldKey)
        let rewrapped: Data
        do {
            rewrapped = try wrap(itemKey.withUnsafeBytes { Data($0) }, part: part, table: table, persistentRef: persistentRef,
                                 protection: new, classKey: newKey)
        } catch {
            throw .allocate("encryption failed")
        }
        var out = Data([sealed.first!])
        out.append(rewrapped)
        out.append(content)
        return out
    }

    private static func split(_ sealed: Data, _ part: Part) throws(KeychainStoreError) -> (Data, Data) {
        // The smallest box (empty plaintext) is a nonce and a tag: 28 bytes.
        guard sealed.count >= 1 + wrappedKeyLength + 28,
              sealed.first == plainFormat || (sealed.first == presenceFormat && part == .secret)
                || (sealed.first == boundFormat && part == .attributes) else {
            throw .decode("an item blob is damaged")
        }
        // Slices share the blob's storage: no copies of what is only read.
        let start = sealed.startIndex + 1
        return (sealed[start..<start + wrappedKeyLength], sealed[(start + wrappedKeyLength)...])
    }

    /// The item key's bytes sealed under the class key: nonce ‖ ciphertext ‖ tag.
    private static func wrap(_ itemKey: some DataProtocol, part: Part, table: String, persistentRef: Data,
                             protection: ProtectionClass, classKey: SymmetricKey, nonce: AES.GCM.Nonce? = nil) throws -> Data {
        try AES.GCM.seal(itemKey, using: classKey, nonce: nonce ?? AES.GCM.Nonce(),
                         authenticating: wrapAAD(part, table, persistentRef, protection)).combined!
    }

    private static func unwrap(_ wrapped: Data, part: Part, table: String, persistentRef: Data,
                               protection: ProtectionClass, classKey: SymmetricKey) throws(KeychainStoreError) -> SymmetricKey {
        do {
            let box = try AES.GCM.SealedBox(combined: wrapped)
            let bytes = try AES.GCM.open(box, using: classKey,
                                         authenticating: wrapAAD(part, table, persistentRef, protection))
            return SymmetricKey(data: bytes)
        } catch {
            throw .decode("an item key failed its integrity check")
        }
    }

    // The authenticated data is built from byte pieces rather than an interpolated string,
    // which cost an add several thousand instructions; the bytes are the same. The fixed pieces
    // are made once (appending a string's UTF-8 view goes through it byte by byte), and the
    // table's name is copied from the string's own buffer.

    private static let contentPrefix = Array("swift-keychain/".utf8)
    private static let wrapPrefix = Array("swift-keychain/wrap/".utf8)
    private static let presencePiece = Array("presence/".utf8)
    private static let boundPiece = Array("bound/".utf8)
    private static let attributesPiece = Array("\(Part.attributes.rawValue)/".utf8)
    private static let secretPiece = Array("\(Part.secret.rawValue)/".utf8)
    private static func partPiece(_ part: Part) -> [UInt8] { part == .attributes ? attributesPiece : secretPiece }
    /// "<class number>/" for every protection class.
    private static let classPieces: [ProtectionClass: [UInt8]] =
        Dictionary(uniqueKeysWithValues: ProtectionClass.allCases.map { ($0, Array("\($0.rawValue)/".utf8)) })

    private static func appendTable(_ table: String, to aad: inout [UInt8]) {
        var table = table
        table.withUTF8 { aad.append(contentsOf: $0) }
        aad.append(0x2f)
    }

    /// "swift-keychain/[presence/|bound/]<part>/<table>/" followed by the persistent reference.
    private static func contentAAD(_ part: Part, _ table: String, _ persistentRef: Data, _ format: UInt8) -> [UInt8] {
        // The format byte is authenticated (for format 2), so a protected secret relabelled as a
        // plain one, or the reverse, fails to open instead of being misread.
        var aad: [UInt8] = []
        aad.reserveCapacity(48 + persistentRef.count)
        aad += contentPrefix
        if format == presenceFormat { aad += presencePiece }
        if format == boundFormat { aad += boundPiece }
        aad += partPiece(part)
        appendTable(table, to: &aad)
        persistentRef.withUnsafeBytes { aad.append(contentsOf: $0) }
        return aad
    }

    /// "swift-keychain/wrap/<part>/<table>/<class number>/" followed by the persistent reference.
    private static func wrapAAD(_ part: Part, _ table: String, _ persistentRef: Data, _ protection: ProtectionClass) -> [UInt8] {
        var aad: [UInt8] = []
        aad.reserveCapacity(48 + persistentRef.count)
        aad += wrapPrefix
        aad += partPiece(part)
        appendTable(table, to: &aad)
        aad += classPieces[protection]!
        persistentRef.withUnsafeBytes { aad.append(contentsOf: $0) }
        return aad
    }
}
