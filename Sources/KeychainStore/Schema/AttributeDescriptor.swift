/// One attribute of an item class.
package struct AttributeDescriptor: Sendable, Hashable {
    /// Apple's four-letter name, which is also the dictionary key.
    package let name: String
    package let kind: AttributeKind
    /// Part of the class's primary key (a duplicate of all of them is `errSecDuplicateItem`).
    package let isPrimaryKey: Bool
    /// Materialised with a default on add when absent (Apple's NOT NULL attributes).
    package let hasDefault: Bool
    /// Returned in attribute dictionaries.
    package let isReturned: Bool
    /// Part of the item digest (`sha1`).
    package let isHashed: Bool
    /// The name of its blind-index column (made once: every write names it).
    let columnName: String

    init(_ name: String, _ kind: AttributeKind, primaryKey: Bool = false, hasDefault: Bool = false,
         returned: Bool = true, hashed: Bool = true) {
        self.name = name
        self.kind = kind
        self.isPrimaryKey = primaryKey
        self.hasDefault = hasDefault
        self.isReturned = returned
        self.isHashed = hashed
        self.columnName = "i_" + name
    }

    /// The value written for an absent attribute that has a default: empty for blobs, strings
    /// and data, zero for numbers and dates (2001-01-01), as Security's `query_pre_add` does.
    package var defaultValue: AttributeValue {
        switch kind {
        case .blob, .string, .access: return .string("")
        case .data, .uuid, .sha1: return .data(.init())
        case .number, .sync, .tomb: return .integer(0)
        case .date: return .date(0)
        }
    }

    /// The column holding this attribute's blind index.
}
