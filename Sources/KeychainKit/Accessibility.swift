/// When an item can be read: the data protection class it is stored under
/// (`kSecAttrAccessible…`).
///
/// On Linux the classes follow the keychain password: without one every class is readable, as on
/// a device without a passcode; with one, ``whenUnlocked`` items need the keychain unlocked and
/// ``afterFirstUnlock`` items need one unlock since the keychain was opened.
///
/// ```swift
/// let keychain = Keychain(service: "com.example.sync").accessibility(.afterFirstUnlock)
/// ```
public enum Accessibility: String, Sendable, Hashable {
    /// Readable while the keychain is unlocked (Apple's default for new items).
    case whenUnlocked = "ak"
    /// Readable from the first unlock until the keychain is closed or the machine restarts: the
    /// choice for items a background task needs.
    case afterFirstUnlock = "ck"
    /// Readable at any time. Apple deprecated it; prefer ``afterFirstUnlock``.
    @available(*, deprecated, message: "Use afterFirstUnlock: Apple deprecated the Always classes")
    case always = "dk"
    /// Readable while unlocked, and only when the keychain has a password; the item is lost if
    /// the password is removed. Never leaves this device.
    case whenPasscodeSetThisDeviceOnly = "akpu"
    /// As ``whenUnlocked``, and never leaves this device (excluded from exports and backups).
    case whenUnlockedThisDeviceOnly = "aku"
    /// As ``afterFirstUnlock``, and never leaves this device.
    case afterFirstUnlockThisDeviceOnly = "cku"
    /// Readable at any time, and never leaves this device. Apple deprecated it.
    @available(*, deprecated, message: "Use afterFirstUnlockThisDeviceOnly: Apple deprecated the Always classes")
    case alwaysThisDeviceOnly = "dku"

    /// The `kSecAttrAccessible…` value, as stored in `kSecAttrAccessible` (`pdmn`).
    public var attributeValue: String { rawValue }
}
