#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// The secret of an item a search found, still sealed: what a caller keeps when it expects to be
/// asked for that secret soon but need not answer with it now.
///
/// Opening it later (``KeychainFile/openSealedSecret(_:)``) costs only the secret's two AES-GCM
/// opens, and succeeds only while the file's ``KeychainChangeStamp`` is still the one the search
/// read it under: after any write from any process, any lock or unlock, any new keybag, it opens
/// nothing and the caller reads the item again. Until opened it holds nothing in the clear.
package struct SealedSecret: Sendable {
    let itemClass: ItemClass
    let persistentReference: Data
    let protection: ProtectionClass
    let sealed: Data
    /// The file's stamp when the item was read.
    package let stamp: KeychainChangeStamp
}

extension KeychainFile {
    /// ``find(_:identity:limit:includeSecrets:authorize:stamp:)`` without opening any secret,
    /// giving each item's ``SealedSecret`` instead (nil for an item that has none, or whose
    /// secret needs the user's presence: those are only opened with a credential).
    package func findKeepingSecretsSealed(_ query: ItemQuery, identity: ClientIdentity,
                                          authorize: ItemAuthorizer? = nil) throws(KeychainStoreError) -> [(item: StoredItem, secret: SealedSecret?)] {
        var stamp: KeychainChangeStamp?
        let rows = try authorizedRows(query, identity: identity, limit: nil, includeSecrets: false, authorize: authorize,
                                      stamp: &stamp, recordingStamp: true)
        return rows.map { row in
            let item = StoredItem(itemClass: query.itemClass, persistentReference: row.persistentReference,
                                  attributes: row.attributes, secret: nil)
            guard let stamp, let sealed = row.sealedSecret, !row.needsAuthentication, row.credential == nil else { return (item, nil) }
            return (item, SealedSecret(itemClass: query.itemClass, persistentReference: row.persistentReference,
                                       protection: row.protection, sealed: sealed, stamp: stamp))
        }
    }

    /// The secret `sealed` holds, or nil when the file changed since it was read (the caller then
    /// reads the item again). Throws when the secret does not open (damage).
    package func openSealedSecret(_ sealed: SealedSecret) throws(KeychainStoreError) -> Data? {
        try withState { state throws(KeychainStoreError) -> Data? in
            guard state.changeStamp == sealed.stamp else { return nil }
            let plaintext = try ItemSealer.open(sealed.sealed, part: .secret, table: ItemTable(sealed.itemClass).name,
                                                persistentRef: sealed.persistentReference, protection: sealed.protection,
                                                classKey: try state.keybag.key(for: sealed.protection))
            return try SecretCodec.decode(plaintext)
        }
    }
}
