/// A data protection class (`kSecAttrAccessible`), with AppleKeyStore's class numbers.
package enum ProtectionClass: Int, Sendable, CaseIterable, Hashable {
    case whenUnlocked = 6                    // ak
    case afterFirstUnlock = 7                // ck
    case always = 8                          // dk
    case whenUnlockedThisDeviceOnly = 9      // aku
    case afterFirstUnlockThisDeviceOnly = 10 // cku
    case alwaysThisDeviceOnly = 11           // dku
    case whenPasscodeSetThisDeviceOnly = 12  // akpu

    /// The class named by a `pdmn` string, or nil. (`"f"`, UntilReboot, is not a storable class.)
    package init?(pdmn: String) {
        switch pdmn {
        case "ak": self = .whenUnlocked
        case "ck": self = .afterFirstUnlock
        case "dk": self = .always
        case "aku": self = .whenUnlockedThisDeviceOnly
        case "cku": self = .afterFirstUnlockThisDeviceOnly
        case "dku": self = .alwaysThisDeviceOnly
        case "akpu": self = .whenPasscodeSetThisDeviceOnly
        default: return nil
        }
    }

    /// The `pdmn` string Apple stores and returns.
    package var pdmn: String {
        switch self {
        case .whenUnlocked: return "ak"
        case .afterFirstUnlock: return "ck"
        case .always: return "dk"
        case .whenUnlockedThisDeviceOnly: return "aku"
        case .afterFirstUnlockThisDeviceOnly: return "cku"
        case .alwaysThisDeviceOnly: return "dku"
        case .whenPasscodeSetThisDeviceOnly: return "akpu"
        }
    }

    /// Items of this class never leave this device (not exported in backups).
    package var isThisDeviceOnly: Bool { rawValue >= 9 }

    /// When the class key is available.
    package enum Availability: Sendable { case whenUnlocked, afterFirstUnlock, always, whenPasscodeSet }

    package var availability: Availability {
        switch self {
        case .whenUnlocked, .whenUnlockedThisDeviceOnly: return .whenUnlocked
        case .afterFirstUnlock, .afterFirstUnlockThisDeviceOnly: return .afterFirstUnlock
        case .always, .alwaysThisDeviceOnly: return .always
        case .whenPasscodeSetThisDeviceOnly: return .whenPasscodeSet
        }
    }
}
