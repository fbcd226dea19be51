import KeychainDBus
import KeychainSecretService

/// What keychaind last saw of a collection's items and lock state, to tell listeners about
/// changes made through other doors: `SecItem*` in any program, `keychainctl`, the credential
/// helpers, another keychaind. Clients such as Seahorse refresh on the signals alone.
struct CollectionSighting {
    /// The collection's counter of other processes' writes when its items were last read.
    var changesByOthers: Int64
    /// Every item's version then (``SecretCollection/itemVersions(ids:)``).
    var versions: [String: Int]
    var locked: Bool
}

extension SecretService {
    /// Takes note of `collection` as it is now, so that later changes can be told apart. A
    /// collection that only the daemon writes (the session) is not watched: its calls signal.
    func sight(_ collection: any SecretCollection, named name: String) {
        sightings.withLock { sightings in
            guard let seen = collection.watchedState(), let versions = collection.itemVersions(ids: nil) else {
                sightings[name] = nil
                return
            }
            sightings[name] = CollectionSighting(changesByOthers: seen.changesByOthers, versions: versions, locked: seen.locked)
        }
    }

    /// Looks at every watched collection for what other programs changed since it was last
    /// seen, and sends the signals a change through D-Bus would have: `ItemCreated`,
    /// `ItemDeleted`, `ItemChanged` (with the collection's `PropertiesChanged`) and, when its
    /// lock state moved, `PropertiesChanged` of `Locked` and `CollectionChanged`. Cheap when
    /// nothing changed: a counter and a lock state per collection. Looking is not using: it
    /// never holds off a keychain's idle timeout.
    package func noticeChangesFromOtherDoors() {
        for (name, collection) in servedCollections {
            var lockedNowIfMoved: Bool?
            var created: [String] = [], deleted: [String] = [], changed: [String] = []
            sightings.withLock { sightings in
                guard var seen = sightings[name], let (lockedNow, counter) = collection.watchedState() else { return }
                if seen.locked != lockedNow {
                    lockedNowIfMoved = lockedNow
                    seen.locked = lockedNow
                }
                if counter != seen.changesByOthers, let versions = collection.itemVersions(ids: nil) {
                    for (id, version) in versions {
                        if let before = seen.versions[id] {
                            if before != version { changed.append(id) }
                        } else {
                            created.append(id)
                        }
                    }
                    deleted = seen.versions.keys.filter { versions[$0] == nil }
                    seen.versions = versions
                    seen.changesByOthers = counter
                }
                sightings[name] = seen
                // Sent while the sighting is held, so that a D-Bus call's change of the same
                // collection cannot be signalled twice (``signallingOwnChange(in:_:_:)``).
                for (ids, signal) in [(deleted, SecretServiceSignals.itemDeleted), (created, SecretServiceSignals.itemCreated),
                                      (changed, SecretServiceSignals.itemChanged)] {
                    for id in ids.sorted() {
                        collectionChanged(name, item: SecretObjectPath.itemPath(collection: name, id: id), signal: signal)
                    }
                }
            }
            if let lockedNow = lockedNowIfMoved { emitLockedChanged(name, locked: lockedNow) }
        }
        // Collections no longer served are no longer watched.
        let served = Set(servedCollections.map(\.name))
        sightings.withLock { sightings in sightings = sightings.filter { served.contains($0.key) } }
    }

    /// Runs a D-Bus call's change of the items `body` reports (their ids) in collection `name`,
    /// with its signals, and takes note of their new versions, so that the change is not
    /// reported a second time as one from another door.
    func signallingOwnChange(in name: String, _ collection: any SecretCollection,
                             _ body: () -> (reply: DBusReply, changed: [String])) -> DBusReply {
        sightings.withLock { sightings in
            let (reply, changed) = body()
            guard !changed.isEmpty, var seen = sightings[name] else { return reply }
            let versions = collection.itemVersions(ids: changed) ?? [:]
            for id in changed { seen.versions[id] = versions[id] }
            sightings[name] = seen
            return reply
        }
    }

    /// Takes note that the daemon itself signalled the collection's lock state.
    func noteLockState(_ name: String, _ locked: Bool) {
        sightings.withLock { $0[name]?.locked = locked }
    }
}
