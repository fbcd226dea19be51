public import Foundation
import KeychainServices

// Add-if-absent. `set` is an upsert: of two processes that both find no token and both store a
// fresh one, each succeeds and the second silently replaces the first, so one of them goes on
// using a token that is no longer stored. `add` lets the keychain's unique key pick the winner:
// exactly one add succeeds, every other one throws duplicateItem and can read the winner's value.

extension Keychain {
    /// Stores `value` (as UTF-8) under `key` only if nothing is stored there yet.
    ///
    /// ```swift
    /// do {
    ///     try keychain.add(freshToken, key: "token")
    /// } catch KeychainError.duplicateItem {
    ///     freshToken = try keychain.get("token")!   // someone else got there first
    /// }
    /// ```
    ///
    /// - Throws: ``KeychainError/duplicateItem`` when an item is already stored under `key`
    ///   (its value is left as it was); ``KeychainError`` for other failures.
    public func add(_ value: String, key: String) throws {
        try addData(Data(value.utf8), key: key)
    }

    /// Stores `value` under `key` only if nothing is stored there yet.
    ///
    /// - Throws: ``KeychainError/duplicateItem`` when an item is already stored under `key`.
    public func add(_ value: Data, key: String) throws {
        try addData(value, key: key)
    }

    /// Stores `value`, encoded, under `key` only if nothing is stored there yet.
    ///
    /// - Throws: ``KeychainKitError/notEncodable(key:type:reason:)`` when the value cannot be
    ///   encoded (nothing is stored then); ``KeychainError/duplicateItem`` when an item is
    ///   already stored under `key`; ``KeychainError`` for other failures.
    public func add<T: Encodable>(_ value: T, key: String) throws {
        try addData(encodeValue(value, key: key), key: key)
    }

    /// One `SecItemAdd`: the database's unique key, not an earlier read, decides whether the key
    /// is taken, so concurrent adders cannot both succeed.
    func addData(_ data: Data, key: String) throws {
        let attributes = try addAttributes(key: key, data: data)
        if synchronizable == .any, try itemExists(key: key) {
            // With .any a synchronized copy also counts as "stored", but an add makes a local
            // item, which is a different item beside it and would not collide. Only this check
            // can see the copy; local adders still race through the unique key below.
            throw failure(errSecDuplicateItem, .add)
        }
        let status = secItem.add(attributes)
        guard status == errSecSuccess else { throw failure(status, .add) }
    }
}
