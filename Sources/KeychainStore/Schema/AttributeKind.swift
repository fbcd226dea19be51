/// How an attribute's values are accepted, stored and compared (Apple's schema "kinds").
package enum AttributeKind: Sendable, Hashable {
    /// Data, string or number, kept with its original type; compared by its bytes.
    case blob
    /// Bytes; strings become UTF-8, numbers their 4-byte integer.
    case data
    /// Text; data is decoded as UTF-8.
    case string
    /// Accessibility (`pdmn`): one of the protection-class strings.
    case access
    /// Integer; booleans become 0/1, numeric strings numbers, other strings stay strings.
    case number
    /// The synchronizable flag, a number.
    case sync
    /// The tombstone flag, a number.
    case tomb
    /// A date (creation and modification dates are set by the keychain).
    case date
    /// A 20-byte digest.
    case sha1
    /// A 16-byte identifier or empty data.
    case uuid
}
