#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

extension KeychainFile {
    /// The persistent identities of the items that `query` selects by their index columns alone,
    /// without opening anything: what a locked keychain can say about its items. Nil when the
    /// query filters on an attribute that has no column (only the opened item could answer).
    ///
    /// The columns are keyed hashes, readable without the class keys, and they are not
    /// authenticated: an answer is a candidate, to be confirmed once the keychain is unlocked. It
    /// includes items of every protection class.
    package func indexedCandidates(_ query: ItemQuery, identity: ClientIdentity) throws(KeychainStoreError) -> [Data]? {
        try withState { state throws(KeychainStoreError) -> [Data]? in
            let selection = try state.selection(query, identity: identity)
            guard selection.postFilters.isEmpty else { return nil }
            let table = ItemTable(query.itemClass)
            let statement = try state.db.statement(state.selectSQL("persistref", table, selection.conditions))
            statement.bind(selection.arguments)
            var references: [Data] = []
            while try statement.step() {
                if let reference = statement.blob(0) { references.append(reference) }
            }
            return references
        }
    }
}
