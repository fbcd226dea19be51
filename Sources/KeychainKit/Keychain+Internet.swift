import Foundation
import KeychainServices

// The credential flow of Apple's internet-password guide: store the user's credentials once they
// sign in, read them back on later launches instead of asking again, replace them when the
// password was changed elsewhere and the server refused the old one, and delete them at sign-out.
// The account is the item's key and the password its value, so one item holds both.

extension Keychain {
    /// Stores `credentials`: adds the item, or replaces the password of the account if it is
    /// already stored.
    ///
    /// ```swift
    /// let site = try Keychain(server: "https://www.example.com", protocolType: .https)
    /// try site.saveCredentials(Credentials(account: "alice", password: "s3cret"))
    /// ```
    public func saveCredentials(_ credentials: Credentials) throws {
        try writeData(Data(credentials.password.utf8), key: credentials.account)
    }

    /// The stored credentials, read with their attributes in one call; nil when none are stored.
    ///
    /// - Parameter account: the account to read; nil for the first stored for this server (the
    ///   usual case when the app keeps one account per server).
    /// - Throws: ``KeychainError`` for any failure other than "not found", including a locked
    ///   keychain; ``KeychainKitError/notDecodable(key:type:reason:)`` when the password is not
    ///   UTF-8.
    public func credentials(account: String? = nil) throws -> Credentials? {
        let query = account.map { itemQuery(key: $0, for: .search) } ?? baseQuery(for: .search)
        guard let item = try readItems(query, includingValues: true, limitOne: true).first else { return nil }
        guard let data = item.value, let password = String(data: data, encoding: .utf8) else {
            throw KeychainKitError.notDecodable(key: item.key, type: "String", reason: "the password is not UTF-8")
        }
        var credentials = Credentials(account: item.key, password: password)
        credentials.attributes = item.withoutValue()
        return credentials
    }

    /// Replaces stored credentials after the password (or the account name) changed elsewhere.
    ///
    /// Unlike ``saveCredentials(_:)-183af`` this never adds an item: it is for a sign-in that the
    /// server refused with the stored password and accepted with a new one.
    ///
    /// - Parameters:
    ///   - credentials: the new account and password.
    ///   - account: the account stored now, when the account name changed; by default the
    ///     account of `credentials`.
    /// - Throws: ``KeychainError/itemNotFound`` when no such credentials are stored;
    ///   ``KeychainError/duplicateItem`` when renaming onto an account that is already stored.
    public func updateCredentials(_ credentials: Credentials, replacingAccount account: String? = nil) throws {
        let query = itemQuery(key: account ?? credentials.account, for: .update)
        var changes = try updateAttributes(data: Data(credentials.password.utf8))
        changes[kSecAttrAccount as String] = credentials.account
        let status = secItem.update(query, changes)
        guard status == errSecSuccess else { throw failure(status, .update) }
    }

    /// Deletes stored credentials, as when the user signs out. Succeeds when none are stored.
    ///
    /// - Parameter account: the account to delete; nil deletes every account of this server.
    public func deleteCredentials(account: String? = nil) throws {
        try deleteItems(account.map { itemQuery(key: $0, for: .delete) } ?? baseQuery(for: .delete))
    }
}

extension KeychainItem {
    /// The same attributes without the value, for handing out alongside a decoded value.
    func withoutValue() -> KeychainItem {
        var copy = self
        copy.value = nil
        return copy
    }
}
