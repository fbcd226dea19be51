import Foundation
import KeychainStore

/// The secret of the one item a search found by its whole key, kept for the secret request that
/// follows it (libsecret's lookup is `SearchItems`, then `GetSecrets` of what it found).
///
/// The search keeps the secret sealed (``SealedSecret``) and answers at once; the daemon opens
/// it after the answer has gone out (``open(with:)``), while the client reads the answer and
/// asks for the secret, so neither call waits for the secret's decryption. The opened secret is
/// handed out at most once, only for that item, and only while the keychain file's
/// ``KeychainChangeStamp`` is the one the search read it under: any write to the file from any
/// process, any lock or unlock and any new keybag since then make it unusable, and the request
/// reads the keychain as always. The next search replaces it, a lock of the collection drops it.
/// Items whose access control needs the user are never kept (the search passes over them);
/// neither are synchronizable ones, which the Secret Service does not serve. The secret is kept
/// for the identity that searched, and handed only to a request made as that same identity: a
/// caller of other access groups asking for the item's id next gets nothing from here (and the
/// keychain read that follows does not find the item for it).
final class SecretPrefetch: Sendable {
    private struct Kept {
        let id: String
        let contentType: String
        /// Whose search found it: the only identity it is handed to.
        let identity: ClientIdentity
        /// Sealed until ``SecretPrefetch/open(with:)`` runs, then the secret.
        var secret: Secret
    }

    private enum Secret {
        case sealed(SealedSecret)
        /// The secret and the stamp of the file it was read from.
        case opened(Data, KeychainChangeStamp)
    }

    private let kept = Locked<Kept?>(nil)

    /// Keeps the sealed secret of `items`' only item (whose record gives `contentType`) when the
    /// search's answer is exactly that item; otherwise forgets what it kept. `identity` is the one
    /// the search was made as.
    func keep(_ items: [(item: StoredItem, secret: SealedSecret?)], contentType: String, matching records: [SecretItemRecord],
              for identity: ClientIdentity) {
        guard items.count == 1, let (item, sealed) = items.first, let sealed,
              item.attributes[AttributeName.synchronizable]?.integerValue != 1,
              records.count == 1, records[0].id == KeychainCollection.id(of: item) else {
            forget()
            return
        }
        kept.withLock { $0 = Kept(id: records[0].id, contentType: contentType, identity: identity, secret: .sealed(sealed)) }
    }

    /// Opens the kept secret, if one waits sealed, through `openSealed` (which gives nil when the
    /// file changed since the search: the secret is then dropped). Returns whether an opened
    /// secret now waits for its request.
    @discardableResult
    func open(with openSealed: (SealedSecret) -> Data?) -> Bool {
        guard let (id, sealed) = kept.withLock({ kept -> (String, SealedSecret)? in
            guard let held = kept, case .sealed(let sealed) = held.secret else { return nil }
            return (held.id, sealed)
        }) else { return false }
        let opened = openSealed(sealed)
        return kept.withLock { kept in
            // Kept again only if no other search or request replaced or took it meanwhile.
            guard let held = kept, held.id == id, case .sealed = held.secret else { return false }
            if let opened {
                kept?.secret = .opened(opened, sealed.stamp)
                return true
            } else {
                kept = nil
                return false
            }
        }
    }

    /// The kept secret of `id` if it was opened, `identity` is the one whose search kept it, and
    /// the file's stamp now (`current`) is still the one it was read under; it is forgotten
    /// either way once asked for.
    func take(id: String, for identity: ClientIdentity, current: () -> KeychainChangeStamp?) -> SecretValue? {
        guard let candidate = kept.withLock({ kept -> Kept? in
            guard let held = kept, held.id == id else { return nil }
            kept = nil
            return held
        }), candidate.identity == identity, case .opened(let bytes, let stamp) = candidate.secret else { return nil }
        guard let now = current(), now == stamp else { return nil }
        return SecretValue(bytes: bytes, contentType: candidate.contentType)
    }

    func forget() {
        kept.withLock { $0 = nil }
    }
}
