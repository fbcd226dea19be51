#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
public import Foundation

// On Apple platforms every NSString (and so every kSec constant, a CFString) enters AnyHashable as
// the Swift String it bridges to: `AnyHashable(kSecAttrAccount) == AnyHashable("acct")`. Keychain
// code depends on that without knowing it: it builds `[AnyHashable: Any]` queries from constants
// and reads results (whose keys come back as String) with `result[kSecAttrAccount]`, and it
// compares constants stored in `[String: AnyHashable]` with strings. Linux's Foundation gives
// NSNumber its Swift form under AnyHashable but leaves NSString as an object, equal only to other
// NSStrings; so without this, those lookups find nothing and such dictionaries hold the same key
// twice. This gives NSString the Apple behaviour for the whole process, as Apple's Foundation does.
extension NSString: @retroactive _HasCustomAnyHashableRepresentation {
    /// The string's Swift value, so that it hashes and compares as that String does.
    @nonobjc
    public func _toCustomAnyHashable() -> AnyHashable? {
        AnyHashable(self as String)
    }
}
#endif
