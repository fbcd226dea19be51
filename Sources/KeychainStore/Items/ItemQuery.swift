#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// What to match: the engine's form of a search dictionary, after the API layer has parsed and
/// coerced it.
package struct ItemQuery: Sendable {
    package var itemClass: ItemClass
    /// Equality filters, by attribute name (values already coerced for their attribute's kind).
    /// `agrp`, `pdmn`, `sync` and `tomb` may be among them.
    package var filters: [String: AttributeValue]
    /// A persistent reference's 16-byte identity, when the query names one item.
    package var persistentReference: Data?
    /// `kSecAttrSynchronizableAny`: match synchronizable and other items alike.
    package var anySynchronizable: Bool

    package init(itemClass: ItemClass, filters: [String: AttributeValue] = [:],
                persistentReference: Data? = nil, anySynchronizable: Bool = false) {
        self.itemClass = itemClass
        self.filters = filters
        self.persistentReference = persistentReference
        self.anySynchronizable = anySynchronizable
    }

    /// The filters the keychain adds: `sync = 0` unless the query names `sync`, uses
    /// `kSecAttrSynchronizableAny` or a persistent reference; `tomb = 0` unless it names `tomb`.
    var effectiveFilters: [String: AttributeValue] {
        var filters = self.filters
        if filters[AttributeName.synchronizable] == nil && !anySynchronizable && persistentReference == nil {
            filters[AttributeName.synchronizable] = .integer(0)
        }
        if filters[AttributeName.tombstone] == nil { filters[AttributeName.tombstone] = .integer(0) }
        return filters
    }

    /// ``effectiveFilters`` in the order of their names, built as one array (without a second
    /// dictionary: a search reads them once, in this order).
    var sortedEffectiveFilters: [(key: String, value: AttributeValue)] {
        var entries: [(key: String, value: AttributeValue)] = []
        entries.reserveCapacity(filters.count + 2)
        for entry in filters { entries.append(entry) }
        if filters[AttributeName.synchronizable] == nil && !anySynchronizable && persistentReference == nil {
            entries.append((AttributeName.synchronizable, .integer(0)))
        }
        if filters[AttributeName.tombstone] == nil { entries.append((AttributeName.tombstone, .integer(0))) }
        entries.sort { $0.key < $1.key }
        return entries
    }
}

/// One item as the engine returns it.
package struct StoredItem: Sendable {
    package let itemClass: ItemClass
    /// The item's random 16-byte identity (its persistent reference is the class code followed by it).
    package let persistentReference: Data
    /// Every stored attribute, including `agrp`, `pdmn`, `sync`, `tomb`, `cdat`, `mdat`, `sha1`, `musr`.
    package var attributes: [String: AttributeValue]
    /// The secret, when it was asked for; nil when the item has none.
    package var secret: Data?

    /// Apple's persistent reference: the four-letter class code followed by the 16-byte identity.
    package var persistentReferenceData: Data {
        var data = Data(itemClass.code.utf8)
        data.append(persistentReference)
        return data
    }
}
