public import Foundation

// Strings and data by key. A getter returns nil only when no item is stored under the key; every
// other failure, a locked keychain above all, throws. Subscripts are read-only and throwing for
// the same reason: a settable subscript cannot throw, so a failed write would pass unnoticed.

extension Keychain {
    /// The string stored under `key`, or nil when nothing is stored.
    ///
    /// ```swift
    /// if let token = try keychain.get("token") { use(token) }
    /// ```
    ///
    /// - Throws: ``KeychainError`` for any failure other than "not found", in particular
    ///   ``KeychainError/interactionNotAllowed`` while the keychain is locked;
    ///   ``KeychainKitError/notDecodable(key:type:reason:)`` when the data is not UTF-8.
    public func get(_ key: String) throws -> String? {
        try getString(key)
    }

    /// The string stored under `key`, or nil when nothing is stored. Same as ``get(_:)-6gmhd``.
    public func getString(_ key: String) throws -> String? {
        guard let data = try readData(key: key) else { return nil }
        guard let string = String(data: data, encoding: .utf8) else {
            throw KeychainKitError.notDecodable(key: key, type: "String", reason: "the data is not UTF-8")
        }
        return string
    }

    /// The data stored under `key`, or nil when nothing is stored.
    ///
    /// - Throws: ``KeychainError`` for any failure other than "not found".
    public func getData(_ key: String) throws -> Data? {
        try readData(key: key)
    }

    /// Stores `value` (as UTF-8) under `key`, replacing any value already there.
    ///
    /// ```swift
    /// try keychain.set("s3cret", key: "alice")
    /// ```
    ///
    /// An upsert in one step: the item is added, or updated if it exists, without a separate
    /// existence check another process could race.
    public func set(_ value: String, key: String) throws {
        try writeData(Data(value.utf8), key: key)
    }

    /// Stores `value` under `key`, replacing any value already there.
    public func set(_ value: Data, key: String) throws {
        try writeData(value, key: key)
    }

    /// Removes the item stored under `key`. Removing a key that is not stored succeeds.
    ///
    /// - Throws: ``KeychainError`` for other failures (a locked keychain, a missing group).
    public func remove(_ key: String) throws {
        try deleteItems(itemQuery(key: key, for: .delete))
    }

    /// Whether an item is stored under `key`. The value itself is not read.
    ///
    /// - Throws: ``KeychainError`` when the keychain cannot answer, for example while locked;
    ///   a locked keychain is never reported as `false`.
    public func contains(_ key: String) throws -> Bool {
        try itemExists(key: key)
    }

    /// The string stored under `key`, or nil; `try keychain["token"]`.
    public subscript(key: String) -> String? {
        get throws { try getString(key) }
    }

    /// The string stored under `key`, or nil; `try keychain[string: "token"]`.
    public subscript(string key: String) -> String? {
        get throws { try getString(key) }
    }

    /// The data stored under `key`, or nil; `try keychain[data: "key"]`.
    public subscript(data key: String) -> Data? {
        get throws { try getData(key) }
    }

    /// The attributes of the item stored under `key` (without its value), or nil;
    /// `try keychain[attributes: "alice"]`.
    public subscript(attributes key: String) -> KeychainItem? {
        get throws { try attributes(key) }
    }
}
