// Configuration returns a modified copy: a Keychain value never changes once made, so one can be
// stored in a `let`, captured by many tasks and refined locally without affecting the others.

extension Keychain {
    /// A copy whose new items get `accessibility`.
    ///
    /// Existing items keep theirs until they are written again with `set`.
    ///
    /// ```swift
    /// let background = keychain.accessibility(.afterFirstUnlock)
    /// ```
    public func accessibility(_ accessibility: Accessibility) -> Keychain {
        var copy = self
        copy.accessibility = accessibility
        return copy
    }

    /// A copy whose items are synchronized (`true`) or kept on this device (`false`).
    public func synchronizable(_ synchronizable: Bool) -> Keychain {
        self.synchronizable(Synchronizable(synchronizable))
    }

    /// A copy with the given synchronization; ``Synchronizable/any`` reads and removes both kinds.
    ///
    /// ```swift
    /// let everywhere = keychain.synchronizable(.any)
    /// let keys = try everywhere.allKeys()   // local and synchronized items
    /// ```
    public func synchronizable(_ synchronizable: Synchronizable) -> Keychain {
        var copy = self
        copy.synchronizable = synchronizable
        return copy
    }

    /// A copy that writes to and searches only `accessGroup`.
    ///
    /// The process must hold the group (on Linux `SWIFT_KEYCHAIN_ACCESS_GROUPS`, on Apple
    /// platforms the keychain-access-groups entitlement); otherwise calls throw
    /// ``KeychainError/missingEntitlement`` naming the group.
    public func accessGroup(_ accessGroup: String) -> Keychain {
        var copy = self
        copy.accessGroup = accessGroup
        return copy
    }

    /// A copy that writes `label` (`kSecAttrLabel`) with each item, for people browsing the
    /// keychain.
    public func label(_ label: String) -> Keychain {
        var copy = self
        copy.label = label
        return copy
    }

    /// A copy that writes `comment` (`kSecAttrComment`) with each item.
    public func comment(_ comment: String) -> Keychain {
        var copy = self
        copy.comment = comment
        return copy
    }
}
