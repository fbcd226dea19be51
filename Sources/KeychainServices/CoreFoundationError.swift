#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
public import Foundation

/// The user-info key of an error's plain, unlocalized description (CFError.h's `NSDescription`).
nonisolated(unsafe) public let kCFErrorDescriptionKey: CFString! = "NSDescription"
/// The user-info key of an error's localized description.
nonisolated(unsafe) public let kCFErrorLocalizedDescriptionKey: CFString! = "NSLocalizedDescription"
/// The user-info key of the error that caused this one.
nonisolated(unsafe) public let kCFErrorUnderlyingErrorKey: CFString! = "NSUnderlyingError"

/// A `CFError` as CoreFoundation makes one, where Linux's Foundation only has `NSError`.
///
/// Apple's Security code reports failures through `SecError` (SecCFError.c), which puts its text
/// under `kCFErrorDescriptionKey`, never under the localized-description key, and CoreFoundation
/// builds the readable forms from it (`_CFErrorCreateLocalizedDescription` in CFError.c):
/// `localizedDescription` is "The operation couldn’t be completed. (OSStatus error -50 - text)".
/// Linux's `NSError` ignores `NSDescription` and would answer "The operation could not be
/// completed. (NSOSStatusErrorDomain error -50.)", so this subclass derives both descriptions
/// the CoreFoundation way. It is an `NSError` (so a `CFError` here) in every other respect.
final class CoreFoundationError: NSError, @unchecked Sendable {
    /// The failure of a Security call in the shape `SecError` gives it: domain
    /// `NSOSStatusErrorDomain`, the status as code, the text under `kCFErrorDescriptionKey`, and
    /// `numberOfErrorsDeep` 0, the nesting count Security keeps in every error it makes
    /// (SecCFCreateErrorWithFormatAndArguments, SecCFError.c).
    static func security(_ status: OSStatus, _ text: String) -> CoreFoundationError {
        CoreFoundationError(domain: "NSOSStatusErrorDomain", code: Int(status),
                            userInfo: ["NSDescription": text, "numberOfErrorsDeep": NSNumber(value: 0)])
    }

    /// The name CoreFoundation's English strings give a domain in descriptions (CFError.c).
    private var displayedDomain: String {
        switch domain {
        case "NSOSStatusErrorDomain": return "OSStatus"
        case "NSPOSIXErrorDomain": return "POSIX"
        case "NSMachErrorDomain": return "Mach"
        case "NSCocoaErrorDomain": return "Cocoa"
        default: return domain
        }
    }

    /// CFError.c's order: the localized description, else a sentence from the localized
    /// failure reason, else the domain and code with the plain description when there is one.
    override var localizedDescription: String {
        if let localized = userInfo["NSLocalizedDescription"] as? String { return localized }
        if let reason = userInfo["NSLocalizedFailureReason"] as? String { return "The operation couldn\u{2019}t be completed. \(reason)" }
        if let text = userInfo["NSDescription"] as? String {
            return "The operation couldn\u{2019}t be completed. (\(displayedDomain) error \(code) - \(text))"
        }
        return "The operation couldn\u{2019}t be completed. (\(displayedDomain) error \(code).)"
    }

    /// What archivers record: `NSError`, so that an archived error reads back anywhere.
    override var classForCoder: AnyClass { NSError.self }

    /// As Apple's Foundation prints an error: domain, code, the description in quotes, user info.
    override var description: String {
        let quoted = (userInfo["NSLocalizedDescription"] as? String) ?? (userInfo["NSDescription"] as? String) ?? "(null)"
        let entries = userInfo.map { "\($0.key)=\($0.value)" }.sorted(by: >).joined(separator: ", ")
        return "Error Domain=\(domain) Code=\(code) \"\(quoted)\" UserInfo={\(entries)}"
    }
}
#endif
