#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Foundation
import KeychainStore

extension SecItemImplementation {
    /// SecItemAdd of several dictionaries as one transaction: every item is checked and
    /// converted exactly as ``add(_:_:)`` does, then all are stored, or none. SecKeyCreateRandomKey
    /// stores a key pair's two halves this way (Apple's makes two SecItemAdd calls; one commit
    /// halves the cost of a permanent key and never leaves half a pair behind when the other half
    /// is refused).
    static func addAll(_ dictionaries: [NSDictionary]) -> OSStatus {
        if let keeper = KeeperClient.route() { return KeeperClient.send(.addAll, dictionaries as NSArray, result: nil, to: keeper) }
        return run {
            let context = try KeychainContext.current()
            try requireAccessGroups(context.identity)
            var items: [NewItem] = []
            for dictionary in dictionaries {
                let entries = dictionary.entries
                if entries.containsKey(in: entitledOnAdd) { throw StatusError(errSecMissingEntitlement) }
                let query = try QueryParser.parse(entries, for: .add)
                if query.isAuthenticationSkip { throw StatusError(errSecParam) }
                if let reference = query.persistentReference, reference.identity == nil { throw StatusError(errSecParam) }
                // As SecItemAdd: search keys make the add a no-op that succeeds.
                if !query.matchKeys.isEmpty || query.limit != nil || query.useItemList { continue }
                guard case .table(let itemClass) = query.requestClass else { throw StatusError(errSecParam) }
                try checkAuthenticationContext(query)
                items.append(NewItem(itemClass, attributes: query.attributes, secret: query.valueData,
                                     accessControl: try query.accessControl.map(storableAccessControl)))
            }
            if !items.isEmpty { _ = try context.file.add(items, identity: context.identity) }
        }
    }
}
#endif
