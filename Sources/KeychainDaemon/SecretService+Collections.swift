package import KeychainSecretService

extension SecretService {
    /// Sets what to do when a call names a collection that is not served, before it is answered
    /// `NoSuchObject`: keychaind looks at the keychains folder again, so that a keychain made a
    /// moment ago is usable at once rather than when its change is reported.
    package func onMissingCollection(_ hook: @escaping @Sendable () -> Void) {
        missingCollectionHook.withLock { $0 = hook }
    }

    /// The collections served now, by name, in the order `Collections` lists them.
    package var servedCollections: [(name: String, collection: any SecretCollection)] {
        state.withLock { $0.collectionOrder }
    }

    /// Serves `collection` as `name` from now on and tells listeners (`CollectionCreated`).
    /// False, and nothing changes, when the name is taken.
    @discardableResult
    package func serve(_ collection: any SecretCollection, named name: String) -> Bool {
        guard state.withLock({ $0.add(collection, named: name) }) else { return false }
        sight(collection, named: name)
        emit(SecretServiceNames.root, SecretServiceNames.serviceInterface, SecretServiceSignals.collectionCreated,
             [.objectPath(SecretObjectPath.collectionPath(name))])
        return true
    }

    /// Stops serving the collection `name` (a keychain whose file went away, the login
    /// keychain's included) and tells listeners (`CollectionDeleted`): its objects answer
    /// `NoSuchObject` from now on, aliases set to it are cleared and grants to its items dropped.
    /// The session collection, which has no file, stays. The collection, or nil when nothing was
    /// withdrawn.
    @discardableResult
    package func withdraw(named name: String) -> (any SecretCollection)? {
        guard name != SecretServiceNames.sessionCollection,
              let (removed, aliasesCleared) = state.withLock({ $0.remove(named: name) }) else { return nil }
        if aliasesCleared { saveAliases() }
        emit(SecretServiceNames.root, SecretServiceNames.serviceInterface, SecretServiceSignals.collectionDeleted,
             [.objectPath(SecretObjectPath.collectionPath(name))])
        return removed
    }
}
