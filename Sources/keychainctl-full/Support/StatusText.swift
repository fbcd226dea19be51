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

    /// Codes keychainctl reports that Security does not name.
    static let otherNames: [OSStatus: String] = [
        BackupDestination.fileExistsStatus: "dupFNErr",
    ]

    /// The constant's name, e.g. "errSecItemNotFound", or "OSStatus <n>" for an unnamed code.
    static func name(_ status: OSStatus) -> String {
        _statusName(status) ?? otherNames[status] ?? "OSStatus \(status)"
    }

    /// The sentence describing `status`.
    static func message(_ status: OSStatus) -> String {
        if let fixed = scriptVisibleMessages[status] { return fixed }
        if let message = SecCopyErrorMessageString(status, nil) { return String(describing: message) }
        return "The keychain returned status \(status)."
    }

    /// What to do next, for the codes a user can act on. Commands it suggests name the program
    /// as it was invoked (a copy installed as `security` says `security`) and, for a keychain
    /// other than the default one, that keychain. Call sites that know more (which password was
    /// refused) pass a hint of their own instead.
    static func hint(_ status: OSStatus, keychain: KeychainSession.Target? = nil) -> String? {
        let program = Console.programName
        let named = keychain?.commandArgument ?? ""
        switch status {
        case errSecItemNotFound:
            return "Check the attributes you matched on (-a, -s, ...); `\(program) dump-keychain\(named)` lists the items."
        case errSecDuplicateItem:
            return "Add -U to update the existing item, or delete it first."
        case errSecInteractionNotAllowed:
            return "The keychain is locked (run `\(program) unlock-keychain\(named)`), or the item needs its password and there is no terminal to ask on."
        case errSecAuthFailed:
            return "The password was not accepted; try again."
        case errSecNoSuchKeychain:
            let path = keychain.map { ShellQuoting.quote($0.url.path) } ?? "PATH"
            return "Check the name or path, or create it with `\(program) create-keychain \(path)`."
        case errSecDuplicateKeychain:
            return "Choose another path, or delete the existing keychain first."
        case errSecMissingEntitlement:
            return "Check --access-group."
        case errSecIO, errSecDiskFull:
            return "Check the keychain file's permissions and the free disk space."
        case errSecParam:
            return "See `\(program) help <command>` for the accepted values."
        case errSecWrongSecVersion:
            return "The keychain was written by a newer version of \(program); upgrade to read it."
        default:
            return nil
        }
    }
}
