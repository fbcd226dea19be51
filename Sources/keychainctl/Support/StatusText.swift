import Foundation
import KeychainServices

/// Names, sentences and hints for result codes, as keychainctl prints them.
enum StatusText {
    /// Sentences scripts written for macOS search for in `security`'s output (go-keyring, for one,
    /// looks for "could not be found"). These two are kept word for word for that reason; every
    /// other code uses this package's own message.
    static let scriptVisibleMessages: [OSStatus: String] = [
        errSecItemNotFound: "The specified item could not be found in the keychain.",
        errSecDuplicateItem: "The specified item already exists in the keychain.",
    ]

    /// The constant's name, e.g. "errSecItemNotFound", or "OSStatus <n>" for an unnamed code.
    static func name(_ status: OSStatus) -> String {
        _statusName(status) ?? "OSStatus \(status)"
    }

    /// The sentence describing `status`.
    static func message(_ status: OSStatus) -> String {
        if let fixed = scriptVisibleMessages[status] { return fixed }
        if let message = SecCopyErrorMessageString(status, nil) { return String(describing: message) }
        return "The keychain returned status \(status)."
    }

    /// What to do next, for the codes a user can act on.
    static func hint(_ status: OSStatus) -> String? {
        switch status {
        case errSecItemNotFound:
            return "Check the attributes you matched on (-a, -s, ...); `keychainctl dump-keychain` lists the items."
        case errSecDuplicateItem:
            return "Add -U to update the existing item, or delete it first."
        case errSecInteractionNotAllowed:
            return "The keychain is locked (run `keychainctl unlock-keychain`), or the item needs its password and there is no terminal to ask on."
        case errSecAuthFailed:
            return "The keychain password was not accepted (try again), or the item needs biometry, which this machine does not have."
        case errSecNoSuchKeychain:
            return "Check the path, or create it with `keychainctl create-keychain PATH`."
        case errSecDuplicateKeychain:
            return "Choose another path, or delete the existing keychain first."
        case errSecMissingEntitlement:
            return "Check --access-group."
        case errSecIO, errSecDiskFull:
            return "Check the keychain file's permissions and the free disk space."
        case errSecParam:
            return "See `keychainctl help <command>` for the accepted values."
        case errSecWrongSecVersion:
            return "The keychain was written by a newer keychainctl; upgrade to read it."
        default:
            return nil
        }
    }
}
