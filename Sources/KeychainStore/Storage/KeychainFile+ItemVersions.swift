#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

extension KeychainFile {
    /// The items `query` selects by their index columns, each with a number that changes
    /// whenever the item is written: a hash of its sealed row, which every write seals anew
    /// (a fresh nonce), so equal numbers mean an unchanged item with near certainty.
    ///
    /// Readable without the class keys, like ``indexedCandidates(_:identity:)``: what lets the
    /// Secret Service daemon tell its listeners about items another process added, changed or
    /// deleted, even while the keychain is locked. Nil when the query filters on an attribute
    /// that has no column. The numbers are only comparable within one process run. Not a use
    /// of the keychain: the idle timeout is not extended by it.
    package func itemVersions(_ query: ItemQuery, identity: ClientIdentity) throws(KeychainStoreError) -> [Data: Int]? {
        try withStateWithoutUse { state throws(KeychainStoreError) -> [Data: Int]? in
            let selection = try state.selection(query, identity: identity)
            guard selection.postFilters.isEmpty else { return nil }
            let statement = try state.db.statement(state.selectSQL("persistref, meta, secret", ItemTable(query.itemClass), selection.conditions))
            statement.bind(selection.arguments)
            var versions: [Data: Int] = [:]
            while try statement.step() {
                guard let reference = statement.blob(0) else { continue }
                var hasher = Hasher()
                hasher.combine(statement.blob(1))
                hasher.combine(statement.blob(2))
                versions[reference] = hasher.finalize()
            }
            return versions
        }
    }
}

extension KeychainFile {
    /// What a watcher sees of the keychain now, without using it (the idle timeout is not
    /// extended): whether it is locked, and SQLite's count of other connections' commits.
    package func watchedState() throws(KeychainStoreError) -> (locked: Bool, changesByOthers: Int64) {
        try withStateWithoutUse { state throws(KeychainStoreError) in
            (state.keybag.hasPassword && !state.keybag.hasKeys(Keybag.unlockedClasses), state.unlock.dataVersion ?? -1)
        }
    }
}
