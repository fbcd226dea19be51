import Foundation

// Everything stored in one keychain: its keys, its items' attributes, and removing them all. The
// queries carry this keychain's service or server, access group and synchronization, so these
// calls never reach another service's items or another group's.

extension Keychain {
    /// The keys stored in this keychain, in the order they were added, each once.
    ///
    /// ```swift
    /// for userId in try keychain.allKeys() { … }
    /// ```
    ///
    /// - Throws: ``KeychainError`` when the keychain cannot be read (an empty keychain is `[]`).
    public func allKeys() throws -> [String] {
        var seen = Set<String>()
        // With .any a local and a synchronized item may share a key.
        return try readItems(baseQuery(for: .search), includingValues: false)
            .map(\.key)
            .filter { seen.insert($0).inserted }
    }

    /// The attributes of every item in this keychain, in the order they were added.
    ///
    /// Values are left out unless `includingValues` is true: listing an account picker should not
    /// decrypt every secret.
    ///
    /// - Parameter includingValues: also return each item's stored value in ``KeychainItem/value``.
    public func allItems(includingValues: Bool = false) throws -> [KeychainItem] {
        try readItems(baseQuery(for: .search), includingValues: includingValues)
    }

    /// The attributes of the item stored under `key` (its value left out), or nil.
    ///
    /// ```swift
    /// if let item = try keychain.attributes("alice") { print(item.modificationDate ?? "") }
    /// ```
    public func attributes(_ key: String) throws -> KeychainItem? {
        try readItems(itemQuery(key: key, for: .search), includingValues: false, limitOne: true).first
    }

    /// Removes every item of this keychain: its service or server, its access group (all the
    /// process's groups when none is configured), and its synchronization. Succeeds when there
    /// is nothing to remove.
    public func removeAll() throws {
        try deleteItems(baseQuery(for: .delete))
    }
}
