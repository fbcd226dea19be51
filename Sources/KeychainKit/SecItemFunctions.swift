import KeychainServices

/// The four SecItem functions the wrapper calls, as values.
///
/// The real ones are ``system``. Tests substitute functions that interleave another writer or
/// fail on purpose, to prove `set` survives a concurrent delete and that every status surfaces.
struct SecItemFunctions: Sendable {
    var add: @Sendable (_ attributes: [String: Any]) -> OSStatus
    var copyMatching: @Sendable (_ query: [String: Any]) -> (status: OSStatus, result: CFTypeRef?)
    var update: @Sendable (_ query: [String: Any], _ attributes: [String: Any]) -> OSStatus
    var delete: @Sendable (_ query: [String: Any]) -> OSStatus

    /// Apple's SecItem API (on Linux, this package's implementation of it).
    static let system = SecItemFunctions(
        add: { attributes in SecItemAdd(attributes as CFDictionary, nil) },
        copyMatching: { query in
            var result: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            return (status, result)
        },
        update: { query, attributes in SecItemUpdate(query as CFDictionary, attributes as CFDictionary) },
        delete: { query in SecItemDelete(query as CFDictionary) }
    )
}
