#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
public import Foundation

/// Adds an item to the keychain.
///
/// Mirrors Security's `SecItemAdd`. The dictionary names the class (`kSecClass`), the item's
/// attributes, its data (`kSecValueData`), and optionally what to return.
///
/// ```swift
/// let status = SecItemAdd([kSecClass as String: kSecClassGenericPassword,
///                          kSecAttrService as String: "example.com",
///                          kSecAttrAccount as String: "alice",
///                          kSecValueData as String: Data("s3cret".utf8)] as CFDictionary, nil)
/// ```
///
/// - Parameters:
///   - attributes: the item to add.
///   - result: receives what the `kSecReturn…` keys ask for; may be nil.
/// - Returns: `errSecSuccess`, `errSecDuplicateItem` when an item with the same primary key
///   exists, or another `errSec…` status.
@discardableResult
public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    SecItemImplementation.add(attributes, result)
}

/// Finds items matching a query.
///
/// Mirrors Security's `SecItemCopyMatching`. Without `kSecMatchLimit` only the first match is
/// returned; the `kSecReturn…` keys choose between data, attributes and persistent references.
///
/// - Parameters:
///   - query: the class, attributes to match, and return and limit keys.
///   - result: receives the match (or an array of matches); may be nil to test for existence.
/// - Returns: `errSecSuccess`, `errSecItemNotFound` when nothing matches,
///   `errSecInteractionNotAllowed` when a match is locked, or another `errSec…` status.
@discardableResult
public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    SecItemImplementation.copyMatching(query, result)
}

/// Changes every item matching a query.
///
/// Mirrors Security's `SecItemUpdate`.
///
/// - Parameters:
///   - query: the class and attributes to match (no return or search keys).
///   - attributesToUpdate: the attributes to set, and `kSecValueData` for new data.
/// - Returns: `errSecSuccess`, `errSecItemNotFound`, `errSecDuplicateItem` when the change would
///   give an item another item's primary key, or another `errSec…` status.
@discardableResult
public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus {
    SecItemImplementation.update(query, attributesToUpdate)
}

/// Deletes every item matching a query.
///
/// Mirrors Security's `SecItemDelete`.
///
/// - Parameter query: the class and attributes to match. Search keys are `errSecParam`, except
///   `kSecMatchLimitAll`, which macOS code sends and which only says what a delete does anyway.
/// - Returns: `errSecSuccess`, `errSecItemNotFound`, or another `errSec…` status.
@discardableResult
public func SecItemDelete(_ query: CFDictionary) -> OSStatus {
    SecItemImplementation.delete(query)
}
#endif
