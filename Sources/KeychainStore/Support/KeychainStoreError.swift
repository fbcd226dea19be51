/// A failure inside the keychain engine.
///
/// The code is one of Apple's `errSec*` statuses, so the API layer can hand it on unchanged; the
/// reason says in words what went wrong. Neither ever contains a secret or an attribute value.
public struct KeychainStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `OSStatus` this failure surfaces as.
    public let status: Int32
    /// What went wrong, for logs and diagnostics; never secret material.
    public let reason: String

    package init(status: Int32, reason: String) {
        self.status = status
        self.reason = reason
    }

    public var description: String { "keychain error \(status): \(reason)" }

    static func parameter(_ reason: String) -> Self { .init(status: SecStatus.param, reason: reason) }
    static func noSuchAttribute(_ name: String) -> Self {
        // Attribute names are public schema names, never user data, so naming one is safe.
        .init(status: SecStatus.noSuchAttr, reason: "the item class has no attribute '\(name)'")
    }
    static let noSuchClass = Self(status: SecStatus.noSuchClass, reason: "unknown item class")
    static let duplicateItem = Self(status: SecStatus.duplicateItem, reason: "an item with the same primary key already exists")
    static let itemNotFound = Self(status: SecStatus.itemNotFound, reason: "no item matched the query")
    static let interactionNotAllowed = Self(
        status: SecStatus.interactionNotAllowed, reason: "the keychain is locked: the item's protection class is not available")
    static func missingEntitlement(group: String) -> Self {
        // Access group names are configuration, not secrets; saying which one is missing is the
        // single most useful hint for -34018.
        .init(status: SecStatus.missingEntitlement, reason: "the process does not hold the access group '\(group)'")
    }
    package static func decode(_ reason: String) -> Self { .init(status: SecStatus.decode, reason: reason) }
    static func notAvailable(_ reason: String) -> Self { .init(status: SecStatus.notAvailable, reason: reason) }
    static func io(_ reason: String) -> Self { .init(status: SecStatus.io, reason: reason) }
    static func readOnly(_ reason: String) -> Self { .init(status: SecStatus.readOnly, reason: reason) }
    static func authFailed(_ reason: String) -> Self { .init(status: SecStatus.authFailed, reason: reason) }
    static func allocate(_ reason: String) -> Self { .init(status: SecStatus.allocate, reason: reason) }
    static func unimplemented(_ reason: String) -> Self { .init(status: SecStatus.unimplemented, reason: reason) }
    package static func `internal`(_ reason: String) -> Self { .init(status: SecStatus.`internal`, reason: reason) }
}
