public import Foundation
public import KeychainServices

/// A set of keychain items that belong together: the generic passwords of one service, or the
/// internet passwords of one server. Each item is a value stored under a key (its account).
///
/// A `Keychain` is an immutable description; configuration methods return a new one, so a value
/// can be shared freely between tasks and threads.
///
/// ```swift
/// let keychain = Keychain(service: "com.example.app")
///     .accessibility(.afterFirstUnlock)
///     .label("Example")
///
/// try keychain.set("s3cret", key: "alice")
/// let password = try keychain.get("alice")      // "s3cret"; nil only when nothing is stored
/// try keychain.remove("alice")                   // succeeds if nothing was stored
/// ```
///
/// It calls only the public SecItem API (`SecItemAdd`, `SecItemCopyMatching`, `SecItemUpdate`,
/// `SecItemDelete`), so it behaves the same on Apple platforms and on Linux.
public struct Keychain: Sendable {
    /// The kind of item a keychain holds.
    public enum ItemClass: String, Sendable, Hashable {
        /// Generic passwords (`kSecClassGenericPassword`), identified by service and key.
        case genericPassword = "genp"
        /// Internet passwords (`kSecClassInternetPassword`), identified by server, protocol,
        /// authentication type, port, path and key.
        case internetPassword = "inet"
    }

    /// The kind of item this keychain holds.
    public let itemClass: ItemClass
    /// The service (`kSecAttrService`) of a generic-password keychain; nil for internet passwords.
    public let service: String?
    /// The server URL of an internet-password keychain; nil for generic passwords.
    public let server: URL?
    /// The protocol of an internet-password keychain.
    public let protocolType: ProtocolType?
    /// The authentication type of an internet-password keychain.
    public let authenticationType: AuthenticationType?

    /// The access group items are written to and searched in; nil means the process's default
    /// group for writes and all of its groups for reads.
    public internal(set) var accessGroup: String?
    /// The accessibility new items get; nil leaves the keychain's default (when unlocked).
    public internal(set) var accessibility: Accessibility?
    /// Whether items are synchronized; ``Synchronizable/no`` unless configured.
    public internal(set) var synchronizable: Synchronizable = .no
    /// The label (`kSecAttrLabel`) written with each item.
    public internal(set) var label: String?
    /// The comment (`kSecAttrComment`) written with each item.
    public internal(set) var comment: String?
    /// The access-control requirements written with each item, if any.
    public internal(set) var accessControlFlags: SecAccessControlCreateFlags?
    /// The reason shown when reading an item needs authentication (`kSecUseOperationPrompt`).
    public internal(set) var authenticationPrompt: String?

    /// The authentication context passed with reads and writes (`kSecUseAuthenticationContext`).
    var authenticationContext: AuthenticationContextBox?
    /// How Codable values become data and back.
    var encoder: any KeychainValueEncoder = JSONEncoder()
    var decoder: any KeychainValueDecoder = JSONDecoder()
    /// The SecItem functions used; tests replace them to force races and failures.
    var secItem: SecItemFunctions = .system
    /// How many add-or-update rounds `set` makes when other processes keep adding and deleting
    /// the same item between its calls.
    var maximumWriteAttempts = 32

    /// The server's parts as stored in the item (host, port, path).
    let endpoint: ServerEndpoint?

    /// A keychain of generic passwords for `service`.
    ///
    /// - Parameters:
    ///   - service: the service name, for example your bundle identifier.
    ///   - accessGroup: the access group to use; nil for the process's default.
    public init(service: String, accessGroup: String? = nil) {
        self.itemClass = .genericPassword
        self.service = service
        self.server = nil
        self.protocolType = nil
        self.authenticationType = nil
        self.endpoint = nil
        self.accessGroup = accessGroup
    }

    /// A keychain of internet passwords for `server`.
    ///
    /// The host, the port (if any) and the path (if not empty) of the URL identify the items,
    /// together with `protocolType` and `authenticationType`.
    ///
    /// - Throws: ``KeychainKitError/invalidServer(reason:)`` when the URL has no scheme or no host.
    public init(server: URL, protocolType: ProtocolType, authenticationType: AuthenticationType = .default) throws(KeychainKitError) {
        self.itemClass = .internetPassword
        self.service = nil
        self.server = server
        self.protocolType = protocolType
        self.authenticationType = authenticationType
        self.endpoint = try ServerEndpoint(server)
    }

    /// A keychain of internet passwords for the server written as a URL string.
    ///
    /// ```swift
    /// let keychain = try Keychain(server: "https://www.example.com", protocolType: .https)
    /// ```
    ///
    /// - Throws: ``KeychainKitError/invalidServer(reason:)`` when the string is not a URL with a
    ///   scheme and a host. A bare name such as `"www.example.com"` or `"AAA"` is refused rather
    ///   than stored under an empty server, where unrelated keychains would overwrite each other.
    public init(server: String, protocolType: ProtocolType, authenticationType: AuthenticationType = .default) throws(KeychainKitError) {
        guard let url = URL(string: server) else {
            throw .invalidServer(reason: "it cannot be parsed as a URL")
        }
        try self.init(server: url, protocolType: protocolType, authenticationType: authenticationType)
    }
}

/// The parts of a server URL that identify internet passwords.
struct ServerEndpoint: Sendable, Hashable {
    let host: String
    let port: Int?
    let path: String?

    init(_ url: URL) throws(KeychainKitError) {
        guard let scheme = url.scheme, !scheme.isEmpty else {
            throw .invalidServer(reason: "it has no scheme such as https://")
        }
        guard let host = url.host(percentEncoded: false), !host.isEmpty else {
            throw .invalidServer(reason: "it has no host")
        }
        self.host = host
        self.port = url.port
        // "https://example.com" and "https://example.com/" are the same server.
        let path = url.path(percentEncoded: false)
        self.path = (path.isEmpty || path == "/") ? nil : path
    }
}
