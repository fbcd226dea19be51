public import Foundation

/// Turns values into the bytes stored in the keychain. `JSONEncoder` and `PropertyListEncoder`
/// conform; conform your own to store another format.
public protocol KeychainValueEncoder: Sendable {
    /// The bytes that represent `value`.
    func encode<T: Encodable>(_ value: T) throws -> Data
}

/// Turns stored bytes back into values. `JSONDecoder` and `PropertyListDecoder` conform.
public protocol KeychainValueDecoder: Sendable {
    /// The value of type `type` that `data` represents.
    func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T
}

extension JSONEncoder: KeychainValueEncoder {}
extension JSONDecoder: KeychainValueDecoder {}
extension PropertyListEncoder: KeychainValueEncoder {}
extension PropertyListDecoder: KeychainValueDecoder {}

// Any Codable value by key, JSON unless another coder is configured. A String or Data value is
// stored as it is (UTF-8 text, raw bytes) whichever overload is picked, so `set("x", key:)` and
// `set("x" as some Encodable, key:)` store the same thing and either getter reads it.

extension Keychain {
    /// A copy that encodes Codable values with `encoder` (JSON by default).
    ///
    /// ```swift
    /// let encoder = JSONEncoder()
    /// encoder.keyEncodingStrategy = .convertToSnakeCase
    /// let accounts = keychain.encoder(encoder)
    /// ```
    ///
    /// Configure the coder fully before passing it; the keychain keeps the object and does not
    /// copy it.
    public func encoder(_ encoder: some KeychainValueEncoder) -> Keychain {
        var copy = self
        copy.encoder = encoder
        return copy
    }

    /// A copy that decodes Codable values with `decoder` (JSON by default).
    public func decoder(_ decoder: some KeychainValueDecoder) -> Keychain {
        var copy = self
        copy.decoder = decoder
        return copy
    }

    /// The value of type `T` stored under `key`, or nil when nothing is stored.
    ///
    /// ```swift
    /// struct Account: Codable { var userId: String; var password: String }
    /// let account = try keychain.get("tkgling", as: Account.self)
    /// ```
    ///
    /// - Throws: ``KeychainKitError/notDecodable(key:type:reason:)`` when the stored data is
    ///   not a `T`; ``KeychainError`` for keychain failures, including a locked keychain.
    public func get<T: Decodable>(_ key: String, as type: T.Type = T.self) throws -> T? {
        guard let data = try readData(key: key) else { return nil }
        return try decodeValue(data, as: T.self, key: key)
    }

    /// Stores `value`, encoded, under `key`, replacing any value already there.
    ///
    /// ```swift
    /// try keychain.set(Account(userId: "tkgling", password: "s3cret"), key: "tkgling")
    /// ```
    ///
    /// - Throws: ``KeychainKitError/notEncodable(key:type:reason:)`` when the value cannot be
    ///   encoded (nothing is stored then); ``KeychainError`` for keychain failures.
    public func set<T: Encodable>(_ value: T, key: String) throws {
        try writeData(encodeValue(value, key: key), key: key)
    }

    /// The value of type `T` stored under `key`, or nil;
    /// `try keychain["tkgling", as: Account.self]`.
    public subscript<T: Decodable>(key: String, as type: T.Type) -> T? {
        get throws { try get(key, as: type) }
    }

    /// The bytes stored for `value`: UTF-8 for a string, the bytes themselves for data, the
    /// encoder's output for anything else.
    func encodeValue<T: Encodable>(_ value: T, key: String) throws -> Data {
        switch value {
        case let string as String:
            return Data(string.utf8)
        case let bytes as Data:
            return bytes
        default:
            do {
                return try encoder.encode(value)
            } catch {
                throw KeychainKitError.notEncodable(key: key, type: "\(T.self)", reason: KeychainKitError.reason(for: error))
            }
        }
    }

    /// The value of type `T` that stored `data` represents, mirroring ``encodeValue(_:key:)``.
    func decodeValue<T: Decodable>(_ data: Data, as type: T.Type, key: String) throws -> T {
        if let data = data as? T { return data }
        if T.self == String.self {
            guard let string = String(data: data, encoding: .utf8) else {
                throw KeychainKitError.notDecodable(key: key, type: "String", reason: "the data is not UTF-8")
            }
            if let string = string as? T { return string }
        }
        do {
            return try decoder.decode(T.self, from: data)
        } catch {
            throw KeychainKitError.notDecodable(key: key, type: "\(T.self)", reason: KeychainKitError.reason(for: error))
        }
    }
}
