package import Foundation
package import KeychainStore

/// One item of a Secret Service collection, as the D-Bus layer shows it: everything but the secret.
package struct SecretItemRecord: Sendable, Equatable {
    /// A stable name for the item inside its collection, made only of `[A-Za-z0-9_]` so that it can
    /// be the last element of a D-Bus object path (`…/collection/login/<id>`).
    package var id: String
    package var label: String
    /// The item's attributes exactly as the client gave them (the names and values it searches by).
    package var attributes: [String: String]
    /// Seconds since 1970, as the spec's `Created` and `Modified` properties carry them.
    package var created: UInt64
    package var modified: UInt64

    package init(id: String, label: String, attributes: [String: String], created: UInt64, modified: UInt64) {
        self.id = id
        self.label = label
        self.attributes = attributes
        self.created = created
        self.modified = modified
    }
}

/// A secret with the MIME type the client stored it with (`text/plain` when it gave none).
package struct SecretValue: Sendable, Equatable {
    package var bytes: Data
    package var contentType: String

    package init(bytes: Data, contentType: String = "text/plain") {
        self.bytes = bytes
        self.contentType = contentType
    }
}

/// Proof that the user gave the keychain password just now: what opens items whose access
/// control needs the user's presence. The daemon keeps one per client, for a short while.
package struct AccessGrant: Sendable {
    package let credential: PresenceCredential

    package init(credential: PresenceCredential) {
        self.credential = credential
    }
}

/// Why a collection refused a call. The D-Bus layer turns each case into the spec's error name;
/// none of them carries a secret.
package enum SecretCollectionError: Error, Sendable, Equatable {
    /// The collection (or the protection class the item needs) is locked: `IsLocked`.
    case locked
    /// No item with that id, or the collection itself is gone: `NoSuchObject`.
    case noSuchItem
    /// The request is malformed or too large: `InvalidArgs`, with a message for the client.
    case invalidArguments(String)
    /// The keychain answered with a status we do not map more precisely: `Failed`, with the
    /// status's text (never the item's contents).
    case failed(String)
}

/// What a Secret Service collection needs from whatever stores it. The daemon serves one
/// keychain-backed collection per keychain file and one in-memory collection (the `session` alias);
/// both conform, and the D-Bus object layer sees only this protocol.
///
/// Every call about items is made as a caller's ``ClientIdentity`` (Apple's entitlements, as
/// keychaind decided them for the connection): it sees and changes only the items of its access
/// groups, and the items of other groups answer as if they did not exist (`.noSuchItem`, absent
/// from searches). An item it creates goes into its first group.
///
/// Rules every conformer follows (they are the spec's and what real clients rely on):
/// - `search` matches exactly: every given pair must be present with exactly that value; an empty
///   dictionary matches every item.
/// - `create(replace: false)` always adds a new item, beside any with the same attributes.
/// - `create(replace: true)` replaces an item whose attribute set equals the given one exactly
///   (same names, same values, no extra names), the one created first when there are several;
///   a keychain also takes an item of the same keychain key whose set contains the given one or
///   is contained in it (``KeychainCollection/replaceable(_:_:keyFilters:as:)``). Otherwise it adds
///   a new item.
/// - Ids are stable for the item's life and never reused for another item while the process runs.
package protocol SecretCollection: AnyObject, Sendable {
    /// Shown as the collection's `Label`.
    var label: String { get }
    /// Changes the `Label`; it lasts as long as the collection (a keychain keeps it in its file).
    func setLabel(_ label: String) throws(SecretCollectionError)
    /// Seconds since 1970.
    var created: UInt64 { get }
    var modified: UInt64 { get }
    /// Whether secrets can be read and items written right now.
    var isLocked: Bool { get }

    /// Items whose attributes contain every given pair. Works while locked (as gnome-keyring's
    /// does) unless the store cannot read attributes without its keys, in which case it throws
    /// `.locked`.
    func search(_ attributes: [String: String], as identity: ClientIdentity) throws(SecretCollectionError) -> [SecretItemRecord]
    /// A search that also names the items that match by their indexes but cannot be read now
    /// (they need the user): what the service lists as locked.
    func searchIncludingLocked(_ attributes: [String: String], as identity: ClientIdentity) throws(SecretCollectionError) -> (records: [SecretItemRecord], lockedIDs: [String])
    /// While the collection is locked: the ids of the items that may match, as far as the store
    /// can tell without its keys (empty when it cannot tell). What a locked collection lists, so
    /// that a client knows to unlock it.
    func lockedCandidates(_ attributes: [String: String], as identity: ClientIdentity) -> [String]
    /// Every item (the `Items` property).
    func allItems(as identity: ClientIdentity) throws(SecretCollectionError) -> [SecretItemRecord]
    /// The item; one whose access control needs the user is `.locked` without a `grant` for it.
    func item(id: String, grant: AccessGrant?, as identity: ClientIdentity) throws(SecretCollectionError) -> SecretItemRecord
    func secret(id: String, grant: AccessGrant?, as identity: ClientIdentity) throws(SecretCollectionError) -> SecretValue
    /// Whether the item exists and needs the user (a grant) to be read.
    func needsGrant(id: String, as identity: ClientIdentity) -> Bool
    /// Checks the password and returns the grant that opens the collection's items that need
    /// the user. A wrong password throws `.failed`.
    func grant(password: String) throws(SecretCollectionError) -> AccessGrant
    /// Adds an item, or with `replace` replaces the one these attributes name (the rules above).
    /// Returns the item and whether an existing one was replaced.
    func create(label: String, attributes: [String: String], secret: SecretValue,
                replace: Bool, as identity: ClientIdentity) throws(SecretCollectionError) -> (item: SecretItemRecord, replaced: Bool)
    func setSecret(id: String, _ secret: SecretValue, as identity: ClientIdentity) throws(SecretCollectionError)
    func setLabel(id: String, _ label: String, as identity: ClientIdentity) throws(SecretCollectionError)
    func setAttributes(id: String, _ attributes: [String: String], as identity: ClientIdentity) throws(SecretCollectionError)
    /// Deletes the item. One whose access control needs the user is `.locked` without a `grant`
    /// for it, as for reading it: over D-Bus, deleting such an item needs the same prompt.
    func delete(id: String, grant: AccessGrant?, as identity: ClientIdentity) throws(SecretCollectionError)

    /// Deletes the collection with all its items (a keychain: its file, as `keychainctl
    /// delete-keychain` does). The daemon stops serving it afterwards.
    func deleteAll() throws(SecretCollectionError)

    /// Locks the collection (for a keychain: what `keychainctl lock-keychain` does).
    func lock() throws(SecretCollectionError)
    /// Unlocks with the keychain password; a wrong password throws `.failed`.
    func unlock(password: String) throws(SecretCollectionError)
    /// Unlocks a collection that has no password to ask for (one that `lock()` locked for D-Bus
    /// clients alone); false, and nothing changes, for one that needs its password.
    func unlockWithoutPassword() -> Bool

    /// Each item's id with a version that changes whenever the item is written, by anyone:
    /// every item for `ids` nil, else those of `ids` that still exist. Nil when the store cannot
    /// tell, or nobody but the daemon writes it (its own calls send their own signals). Only
    /// items of the shared access group are counted: the signals made from these go to every
    /// listener on the bus, whatever its groups (docs/secret-service.md).
    func itemVersions(ids: [String]?) -> [String: Int]?
    /// What a watcher of the store sees now, without it counting as a use (a keychain's idle
    /// timeout is not extended): whether it is locked, and a counter that moves whenever
    /// another process writes it. Nil when no other process can.
    func watchedState() -> (locked: Bool, changesByOthers: Int64)?
    /// Opens a secret the last search kept sealed for the request that usually follows it. The
    /// daemon calls this after the search's answer has been sent, so the answer never waits for
    /// it; a collection that keeps nothing does nothing. Returns whether an opened secret now
    /// waits for its request (the daemon then expects that request at once).
    @discardableResult
    func openKeptSecret() -> Bool
}

extension SecretCollection {
    @discardableResult
    package func openKeptSecret() -> Bool { false }
    package func itemVersions(ids: [String]?) -> [String: Int]? { nil }
    package func watchedState() -> (locked: Bool, changesByOthers: Int64)? { nil }
}
