import Foundation

/// An account name and its password, as an app keeps them for a server.
///
/// Credentials read from the keychain also carry the stored item's ``attributes`` (dates, label);
/// they play no part in equality. The description never shows the password.
public struct Credentials: Sendable {
    /// The account (user name) the password belongs to.
    public var account: String
    /// The password.
    public var password: String
    /// The attributes of the stored item, when these credentials were read from the keychain;
    /// nil for credentials made in code.
    public internal(set) var attributes: KeychainItem?

    /// Credentials for `account` with `password`.
    public init(account: String, password: String) {
        self.account = account
        self.password = password
        self.attributes = nil
    }
}

extension Credentials: Hashable {
    /// Equal when account and password are equal, wherever they came from.
    public static func == (lhs: Credentials, rhs: Credentials) -> Bool {
        lhs.account == rhs.account && lhs.password == rhs.password
    }

    /// Hashes account and password, as equality compares them.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(account)
        hasher.combine(password)
    }
}

extension Credentials: CustomStringConvertible, CustomReflectable {
    /// The account only; the password is redacted.
    public var description: String { "Credentials(account: \"\(account)\", password: <redacted>)" }

    /// A mirror without the password, so that `dump` and debuggers do not print it.
    public var customMirror: Mirror {
        Mirror(self, children: ["account": account, "password": "<redacted>", "attributes": attributes as Any],
               displayStyle: .struct)
    }
}
