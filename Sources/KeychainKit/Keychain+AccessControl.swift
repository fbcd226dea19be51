public import KeychainServices
public import KeychainAuthentication

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
    /// keychain that cannot enforce a requirement reports it as a ``KeychainError`` and stores
    /// nothing. On Linux the device passcode is the keychain password: a keychain without one
    /// refuses items that need authentication (``KeychainError/notAvailable``), biometry exists
    /// only when simulated (``KeychainError/authFailed`` otherwise), and reading asks the
    /// installed authenticator (a terminal prompt by default; see KeychainAuthentication).
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

    /// A copy that passes `context`, an `LAContext`, with every read and write
    /// (`kSecUseAuthenticationContext`), so that one successful authentication serves several
    /// calls for as long as the context allows reuse.
    ///
    /// ```swift
    /// let context = LAContext()
    /// context.touchIDAuthenticationAllowableReuseDuration = 60
    /// let session = guarded.authenticationContext(context)
    /// let first = try session.get("alice")    // asks once
    /// let second = try session.get("bob")     // reuses that authentication
    /// ```
    ///
    /// The keychain hands the object to the SecItem API and never changes it. Set
    /// `interactionNotAllowed` on the context to make reads that would need a prompt fail with
    /// ``KeychainError/interactionNotAllowed`` instead of asking.
    ///
    /// - Parameter context: the authentication context.
    public func authenticationContext(_ context: LAContext) -> Keychain {
        var copy = self
        copy.authenticationContext = AuthenticationContextBox(context: context)
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
    let context: LAContext
}
