public import Foundation
public import KeychainServices

/// A keychain call that failed, with the `OSStatus` the SecItem API returned kept whole.
///
/// Every status Apple defines has a named static (``itemNotFound``, ``interactionNotAllowed``,
/// ``missingEntitlement``…), and a status this module has no name for is kept as it is, never
/// folded into an "unknown" case. Match it the way you would match an enum case:
///
/// ```swift
/// do {
///     let token = try keychain.get("token")
/// } catch KeychainError.interactionNotAllowed {
///     // The keychain is locked: try again after unlock. This is not "no token".
/// } catch KeychainError.missingEntitlement {
///     // The access group is not granted to this process.
/// }
/// ```
///
/// Two errors are equal when their statuses are equal; ``operation`` and ``accessGroup`` only
/// enrich the description. Descriptions say what happened and what to do, and never contain a
/// secret.
public struct KeychainError: Error, Sendable, Hashable {
    /// The status the keychain returned (negative; Apple's `errSec…` numbering).
    public let status: OSStatus
    /// What the wrapper was doing when the call failed, when known.
    public let operation: Operation?
    /// The access group the failing call named, when it named one. A ``missingEntitlement``
    /// description cites it, since that is the group the process would have to be granted.
    public let accessGroup: String?

    /// The SecItem call a ``KeychainError`` came from.
    public enum Operation: String, Sendable, Hashable {
        /// Adding an item (`SecItemAdd`).
        case add
        /// Reading or searching items (`SecItemCopyMatching`).
        case read
        /// Changing items (`SecItemUpdate`).
        case update
        /// Deleting items (`SecItemDelete`).
        case delete
        /// Making the item's access control (`SecAccessControlCreateWithFlags`).
        case createAccessControl
    }

    /// An error for `status`, for example one a SecItem function returned.
    ///
    /// ```swift
    /// let status = SecItemDelete(query as CFDictionary)
    /// if status != errSecSuccess { throw KeychainError(status: status) }
    /// ```
    public init(status: OSStatus) {
        self.init(status: status, operation: nil, accessGroup: nil)
    }

    /// An error for `status`, with what was being done and the access group the call named.
    public init(status: OSStatus, operation: Operation?, accessGroup: String? = nil) {
        self.status = status
        self.operation = operation
        self.accessGroup = accessGroup
    }

    /// Apple's name for the status (`"errSecItemNotFound"`), or nil for a number Apple does not
    /// define.
    public var name: String? { KeychainError.names[status] }

    /// Equal statuses make equal errors; the context (operation, group) is left out so that
    /// `error == .itemNotFound` reads as expected.
    public static func == (lhs: KeychainError, rhs: KeychainError) -> Bool {
        lhs.status == rhs.status
    }

    /// Hashes the status only, as equality compares only the status.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(status)
    }

    /// Lets `catch KeychainError.itemNotFound` match a thrown error with that status.
    ///
    /// Also matches an `NSError` in `NSOSStatusErrorDomain` with that code, as Apple's APIs
    /// report keychain failures that way.
    public static func ~= (pattern: KeychainError, error: any Error) -> Bool {
        if let error = error as? KeychainError { return error.status == pattern.status }
        let bridged = error as NSError
        return bridged.domain == KeychainError.errorDomain && bridged.code == Int(pattern.status)
    }
}

extension KeychainError: CustomNSError {
    /// Apple's domain for `OSStatus` codes, so that bridging to `NSError` keeps the status.
    public static var errorDomain: String { "NSOSStatusErrorDomain" }
    /// The status, as an `NSError` code.
    public var errorCode: Int { Int(status) }
    /// The description, under `NSLocalizedDescriptionKey`.
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [NSLocalizedDescriptionKey: description]
        if let recoverySuggestion { info[NSLocalizedRecoverySuggestionErrorKey] = recoverySuggestion }
        return info
    }
}
