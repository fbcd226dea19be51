#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Crypto

/// Items whose access control requires authentication: asking for it, and opening them.
extension KeychainFile {
    /// Asks `authorize` about each row that needs authentication and opens it with the
    /// credential it gives; drops the rows it skips (counted in `skipped`). Runs without the
    /// keychain's lock held, since `authorize` may wait for a person.
    static func authorized(_ rows: [MatchedRow], table: ItemTable, authorize: ItemAuthorizer?,
                           skipped: inout Int) throws(KeychainStoreError) -> [MatchedRow] {
        var kept: [MatchedRow] = []
        kept.reserveCapacity(rows.count)
        for var row in rows {
            guard let sealed = row.presenceSealed else {
                kept.append(row)
                continue
            }
            guard let authorize else { throw .interactionNotAllowed }
            switch try authorize(row.attributes[AttributeName.accessControl]?.dataValue) {
            case .skip:
                skipped += 1
            case .credential(let credential):
                let plaintext = try PresenceSeal.open(sealed, with: credential, table: table.name,
                                                      persistentRef: row.persistentReference)
                row.secret = try SecretCodec.decode(plaintext)
                row.credential = credential
                kept.append(row)
            }
        }
        return kept
    }
}

extension KeychainFile.State {
    /// The sealed secret an updated row gets, given its new protection class, whether it must be
    /// sealed to the presence key, and the new secret (nil: keep its own). A row that needs
    /// authentication must carry the credential that opened it.
    func resealedSecret(_ row: MatchedRow, table: ItemTable, protection newProtection: ProtectionClass,
                        presenceSealed: Bool, newSecret: Data?) throws(KeychainStoreError) -> Data? {
        let wasPresenceSealed = row.needsAuthentication
        if newSecret == nil && wasPresenceSealed == presenceSealed {
            // The content stays; only the item key's wrapping follows a change of class.
            guard let existing = row.sealedSecret, newProtection != row.protection else { return row.sealedSecret }
            return try ItemSealer.rewrap(existing, part: .secret, table: table.name, persistentRef: row.persistentReference,
                                         from: row.protection, oldKey: try keybag.key(for: row.protection),
                                         to: newProtection, newKey: try keybag.key(for: newProtection))
        }
        let encoded: Data
        if let newSecret {
            encoded = SecretCodec.encode(newSecret)
        } else if let sealed = row.presenceSealed {
            guard let credential = row.credential else { throw .interactionNotAllowed }
            encoded = try PresenceSeal.open(sealed, with: credential, table: table.name, persistentRef: row.persistentReference)
        } else if let existing = row.sealedSecret {
            encoded = try ItemSealer.open(existing, part: .secret, table: table.name, persistentRef: row.persistentReference,
                                          protection: row.protection, classKey: try keybag.key(for: row.protection))
        } else {
            return nil
        }
        return try sealEncodedSecret(encoded, table: table, persistentReference: row.persistentReference,
                                     protection: newProtection, presenceKey: presenceSealed ? try presencePublicKey(for: newProtection) : nil)
    }
}
