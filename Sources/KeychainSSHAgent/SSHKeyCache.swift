import Foundation
import KeychainLocking
import KeychainServices

/// The keys the agent signed with recently, as `SecKey` objects already read from their items,
/// so that a signature does not decrypt and parse its key item again: parsing an RSA key (and
/// the arithmetic set-up of its first signature) costs about as much as a third of the signature
/// itself (Benchmarks/notes/2026-12-03-ssh-agent-against-openssh.md).
///
/// A cached key is only ever used after the keychain answered the attribute search of
/// ``SSHKeychainKeys/entry(forBlob:now:)`` for the same item, unchanged: that search fails while
/// the keychain is locked (the attributes are sealed under the same class key as the data) and
/// finds nothing once the item is deleted or replaced, and either empties the cache. So the
/// cache never signs for a locked keychain or a removed key; what it changes is that the parsed
/// keys stay in keychaind's memory between signatures, as OpenSSH's agent keeps every key, until
/// the keychain locks or the agent has been idle for ``idleLimit``.
final class SSHKeyCache: Sendable {
    /// Which item, in which version: a replaced item (ssh-add again) has another persistent
    /// reference, a changed one another modification date.
    struct ItemVersion: Hashable, Sendable {
        let persistentReference: Data
        let modified: Date
    }

    /// How many keys are kept; a user's agent holds a handful.
    static let capacity = 16
    /// How long a key stays cached without being used.
    static let idleLimit: TimeInterval = 300

    private struct Cached {
        let key: SecKey
        let blob: [UInt8]
        var lastUsed: Date
    }

    private let cached = Locked<[ItemVersion: Cached]>([:])

    /// The key and public key blob cached for this version of the item, if any.
    func lookUp(_ version: ItemVersion, now: Date = Date()) -> (key: SecKey, blob: [UInt8])? {
        cached.withLock { entries in
            guard var entry = entries[version] else { return nil }
            entry.lastUsed = now
            entries[version] = entry
            return (entry.key, entry.blob)
        }
    }

    func store(_ key: SecKey, blob: [UInt8], for version: ItemVersion, now: Date = Date()) {
        cached.withLock { entries in
            if entries[version] == nil, entries.count >= Self.capacity,
               let oldest = entries.min(by: { $0.value.lastUsed < $1.value.lastUsed })?.key {
                entries[oldest] = nil
            }
            entries[version] = Cached(key: key, blob: blob, lastUsed: now)
        }
    }

    /// Drops every key: the keychain refused a search (locked), or keys were removed.
    func removeAll() {
        cached.withLock { $0.removeAll() }
    }

    /// Drops the keys unused for ``idleLimit``.
    func removeIdle(now: Date = Date()) {
        cached.withLock { entries in
            entries = entries.filter { now.timeIntervalSince($0.value.lastUsed) < Self.idleLimit }
        }
    }

    var count: Int { cached.withLock { $0.count } }
}
