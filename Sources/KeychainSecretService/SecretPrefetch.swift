import Foundation
import KeychainStore
import Synchronization

/// The secret of the one item a search found by its whole key, kept for the secret request that
/// follows it (libsecret's lookup is `SearchItems`, then `GetSecrets` of what it found).
///
/// It is handed out at most once, only for that item, and only while the keychain file's
/// ``KeychainChangeStamp`` is the one it was read under: any write to the file from any process,
/// any lock or unlock and any new keybag since then make it unusable, and the request reads the
/// keychain as always. The next search replaces it, a lock of the collection drops it. Items whose
/// access control needs the user are never kept (the search passes over them); neither are
/// synchronizable ones, which the Secret Service does not serve.
final class SecretPrefetch: Sendable {
    private struct Kept {
        let id: String
        let secret: SecretValue
        let stamp: KeychainChangeStamp
    }

    private let kept = Mutex<Kept?>(nil)

    /// Keeps the secret of `items`' only item (whose record gives `contentType`) when the
    /// search's answer is exactly that item; otherwise forgets what it kept.
    func keep(_ items: [StoredItem], contentType: String, matching records: [SecretItemRecord], stamp: KeychainChangeStamp?) {
        guard let stamp, items.count == 1, let item = items.first, let secret = item.secret,
              item.attributes[AttributeName.synchronizable]?.integerValue != 1,
              records.count == 1, records[0].id == KeychainCollection.id(of: item) else {
            forget()
            return
        }
        kept.withLock { $0 = Kept(id: records[0].id, secret: SecretValue(bytes: secret, contentType: contentType), stamp: stamp) }
    }

    /// The kept secret of `id` if the file's stamp now (`current`) is still the one it was read
    /// under; it is forgotten either way once asked for.
    func take(id: String, current: () -> KeychainChangeStamp?) -> SecretValue? {
        guard let candidate = kept.withLock({ kept -> Kept? in
            guard let held = kept, held.id == id else { return nil }
            kept = nil
            return held
        }) else { return nil }
        guard let now = current(), now == candidate.stamp else { return nil }
        return candidate.secret
    }

    func forget() {
        kept.withLock { $0 = nil }
    }
}
