public import Foundation

// Async twins of every operation. Each suspends the caller and runs the blocking SecItem call on
// KeychainExecutor's threads, so neither the main actor nor the cooperative pool waits on the
// keychain's disk or lock. In an async context Swift picks these overloads; write `try await`.
//
// Encoding and decoding stay on the caller's side of the hop: a Codable type need not be
// Sendable, only the bytes cross.

extension Keychain {
    /// Async ``get(_:)``: the string stored under `key`, or nil.
    public func get(_ key: String) async throws -> String? {
        try await KeychainExecutor.run { try self.getString(key) }
    }

    /// Async ``getString(_:)``.
    public func getString(_ key: String) async throws -> String? {
        try await KeychainExecutor.run { try self.getString(key) }
    }

    /// Async ``getData(_:)``.
    public func getData(_ key: String) async throws -> Data? {
        try await KeychainExecutor.run { try self.readData(key: key) }
    }

    /// Async ``get(_:as:)``: the value of type `T` stored under `key`, or nil.
    public func get<T: Decodable>(_ key: String, as type: T.Type = T.self) async throws -> T? {
        guard let data = try await KeychainExecutor.run({ try self.readData(key: key) }) else { return nil }
        return try decodeValue(data, as: T.self, key: key)
    }

    /// Async ``set(_:key:)-(String,_)``.
    public func set(_ value: String, key: String) async throws {
        let data = Data(value.utf8)
        try await KeychainExecutor.run { try self.writeData(data, key: key) }
    }

    /// Async ``set(_:key:)-(Data,_)``.
    public func set(_ value: Data, key: String) async throws {
        try await KeychainExecutor.run { try self.writeData(value, key: key) }
    }

    /// Async ``set(_:key:)-(T,_)``: stores `value`, encoded, under `key`.
    public func set<T: Encodable>(_ value: T, key: String) async throws {
        let data = try encodeValue(value, key: key)
        try await KeychainExecutor.run { try self.writeData(data, key: key) }
    }

    /// Async ``add(_:key:)-(String,_)``: stores `value` only if nothing is stored under `key`.
    public func add(_ value: String, key: String) async throws {
        let data = Data(value.utf8)
        try await KeychainExecutor.run { try self.addData(data, key: key) }
    }

    /// Async ``add(_:key:)-(Data,_)``.
    public func add(_ value: Data, key: String) async throws {
        try await KeychainExecutor.run { try self.addData(value, key: key) }
    }

    /// Async ``add(_:key:)-(T,_)``: stores `value`, encoded, only if nothing is stored under `key`.
    public func add<T: Encodable>(_ value: T, key: String) async throws {
        let data = try encodeValue(value, key: key)
        try await KeychainExecutor.run { try self.addData(data, key: key) }
    }

    /// Async ``remove(_:)``.
    public func remove(_ key: String) async throws {
        try await KeychainExecutor.run { try self.remove(key) }
    }

    /// Async ``contains(_:)``.
    public func contains(_ key: String) async throws -> Bool {
        try await KeychainExecutor.run { try self.contains(key) }
    }

    /// Async ``allKeys()``.
    public func allKeys() async throws -> [String] {
        try await KeychainExecutor.run { try self.allKeys() }
    }

    /// Async ``allItems(includingValues:)``.
    public func allItems(includingValues: Bool = false) async throws -> [KeychainItem] {
        try await KeychainExecutor.run { try self.allItems(includingValues: includingValues) }
    }

    /// Async ``attributes(_:)``.
    public func attributes(_ key: String) async throws -> KeychainItem? {
        try await KeychainExecutor.run { try self.attributes(key) }
    }

    /// Async ``removeAll()``.
    public func removeAll() async throws {
        try await KeychainExecutor.run { try self.removeAll() }
    }

    /// Async ``saveCredentials(_:)``.
    public func saveCredentials(_ credentials: Credentials) async throws {
        try await KeychainExecutor.run { try self.saveCredentials(credentials) }
    }

    /// Async ``credentials(account:)``.
    public func credentials(account: String? = nil) async throws -> Credentials? {
        try await KeychainExecutor.run { try self.credentials(account: account) }
    }

    /// Async ``updateCredentials(_:replacingAccount:)``.
    public func updateCredentials(_ credentials: Credentials, replacingAccount account: String? = nil) async throws {
        try await KeychainExecutor.run { try self.updateCredentials(credentials, replacingAccount: account) }
    }

    /// Async ``deleteCredentials(account:)``.
    public func deleteCredentials(account: String? = nil) async throws {
        try await KeychainExecutor.run { try self.deleteCredentials(account: account) }
    }
}
