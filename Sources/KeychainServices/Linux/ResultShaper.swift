#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Foundation
import KeychainStore

/// Builds what SecItemAdd and SecItemCopyMatching hand back: data, attributes, a persistent
/// reference or a reference, alone or combined into a dictionary, one or an array of them, as
/// `kSecReturn*` and `kSecMatchLimit` ask.
enum ResultShaper {
    /// Attributes CopyMatching never returns.
    private static let hiddenFromSearch: Set<String> = [AttributeName.uuid, AttributeName.persistentReference, AttributeName.accessControl]

    /// The value for one item, or nil when there is none to give (data asked for alone on an
    /// item without data; a reference asked for alone on a password).
    /// `references` lets keys and certificates be rebuilt as refs for `kSecReturnRef`; without it
    /// no ref is made.
    static func value(for item: StoredItem, query: ParsedQuery, forAdd: Bool, references: ReferenceContext? = nil) -> AnyObject? {
        // Matches Security: a reference asked for with any other return key turns the result
        // into a dictionary; asked for alone it is the reference itself, which a password
        // does not have (so nothing).
        let others = [query.returnData, query.returnAttributes, query.returnPersistentRef].filter { $0 }.count
        let wantsDictionary = query.returnAttributes || (query.returnRef && others > 0)
            || (query.returnData && query.returnPersistentRef)
        if !wantsDictionary {
            if query.returnData {
                // SecItemAdd returns empty data for an item without data; CopyMatching returns nothing.
                if let secret = item.secret { return secret.resultObject }
                return forAdd ? Data().resultObject : nil
            }
            if query.returnPersistentRef { return item.persistentReferenceData.resultObject }
            // kSecReturnRef: the key or certificate; a password has none (success with no object).
            return query.returnRef ? ItemReferences.reference(for: item, context: references) : nil
        }
        let dictionary = forAdd ? addAttributes(item, query: query) : searchAttributes(item)
        if query.returnRef {
            dictionary["class"] = item.itemClass.code as NSString
            if let reference = ItemReferences.reference(for: item, context: references) { dictionary["v_Ref"] = reference }
        }
        if query.returnData, let secret = item.secret { dictionary["v_Data"] = secret.resultObject }
        if query.returnPersistentRef { dictionary["v_PersistentRef"] = item.persistentReferenceData.resultObject }
        return dictionary
    }

    /// CopyMatching's attribute dictionary: every stored attribute (with `musr`, `tomb`, `sync`,
    /// `sha1`) plus an access-control object, without the item's internal identifiers.
    static func searchAttributes(_ item: StoredItem) -> NSMutableDictionary {
        let dictionary = NSMutableDictionary(capacity: item.attributes.count + 3)
        for (name, value) in item.attributes where !hiddenFromSearch.contains(name) {
            dictionary[name as NSString] = ValueConversion.object(value)
        }
        // The stored access control, or (as Apple synthesises for every item) one that carries
        // only the protection.
        if let stored = item.attributes[AttributeName.accessControl]?.dataValue, let control = SecAccessControl.decoded(stored) {
            dictionary[AttributeName.accessControl] = control
        } else if let pdmn = item.attributes[AttributeName.accessible]?.stringValue {
            dictionary[AttributeName.accessControl] = SecAccessControl(protection: pdmn, flags: [])
        }
        return dictionary
    }

    /// SecItemAdd's attribute dictionary: only attributes Apple marks as returned (no `musr`,
    /// `tomb`, `UUID`), and `accc` only if the caller gave one.
    private static func addAttributes(_ item: StoredItem, query: ParsedQuery) -> NSMutableDictionary {
        let schema = item.itemClass.schema
        let dictionary = NSMutableDictionary(capacity: item.attributes.count + 2)
        for (name, value) in item.attributes where schema.attribute(name)?.isReturned ?? false {
            dictionary[name as NSString] = ValueConversion.object(value)
        }
        if let control = query.accessControl { dictionary[AttributeName.accessControl] = control }
        return dictionary
    }

    /// The result of CopyMatching for all matched items: one value when the limit is one,
    /// otherwise an array (even for one match; empty when nothing is asked to be returned).
    static func searchResult(_ items: [StoredItem], query: ParsedQuery, references: ReferenceContext? = nil) -> AnyObject? {
        let limit = query.limit ?? .count(1)
        if limit.isOne {
            return items.first.flatMap { value(for: $0, query: query, forAdd: false, references: references) }
        }
        let array = NSMutableArray(capacity: items.count)
        for item in items {
            if let value = value(for: item, query: query, forAdd: false, references: references) { array.add(value) }
        }
        return array
    }
}
#endif
