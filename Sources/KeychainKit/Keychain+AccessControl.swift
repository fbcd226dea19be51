public import KeychainServices

extension Keychain {
    /// A copy whose new items require authentication as `flags` say (`kSecAttrAccessControl`),
    /// protected by the configured ``accessibility`` (``Accessibility/whenUnlocked`` if none).
    ///
    /// ```swift
    /// let guarded = keychain
    ///     .accessibility(.whenPasscodeSetThisDeviceOnly)
    ///     .accessControl(.userPresence, prompt: "Unlock your saved password")
    /// try guarded.set("s3cret", key: "alice")
    /// ```
    ///
    /// Apple refuses access control together with synchronization (``KeychainError/param``). A
    /// keychain that cannot enforce a requirement reports it as a ``KeychainError`` (on Linux,
    /// requirements that need authentication are ``KeychainError/unimplemented`` until the
    /// authenticator lands); nothing is stored then.
    ///
    /// - Parameters:
    ///   - flags: the requirements, for example `.userPresence` or `[.biometryAny, .or, .devicePasscode]`.
    ///   - prompt: the reason shown when reading an item needs authentication.
    public func accessControl(_ flags: SecAccessControlCreateFlags, prompt: String? = nil) -> Keychain {
        var copy = self
        copy.accessControlFlags = flags
        if let prompt { copy.authenticationPrompt = prompt }
        return copy
    }

    /// A copy that shows `prompt` when reading an item needs authentication
    /// (`kSecUseOperationPrompt`).
    public func authenticationPrompt(_ prompt: String) -> Keychain {
        var copy = self
        copy.authenticationPrompt = prompt
        return copy
    }

    /// The access-control object for a new or rewritten item, or nil when none is configured.
    func makeAccessControl() throws -> SecAccessControl? {
        guard let flags = accessControlFlags else { return nil }
        let protection = (accessibility ?? .whenUnlocked).rawValue as CFString
        var error: Unmanaged<CFError>?
        guard let accessControl = SecAccessControlCreateWithFlags(kCFAllocatorDefault, protection, flags, &error) else {
            let status = error.map { OSStatus(truncatingIfNeeded: CFErrorGetCode($0.takeRetainedValue())) } ?? errSecParam
            throw KeychainError(status: status, operation: .createAccessControl, accessGroup: accessGroup)
        }
        return accessControl
    }
}

/// An authentication context carried by a `Keychain` value.
///
/// Contexts are reference types meant to be shared so that one authentication serves several
/// reads; the keychain only passes the object along, it never mutates it.
struct AuthenticationContextBox: @unchecked Sendable {
    let context: AnyObject
}
