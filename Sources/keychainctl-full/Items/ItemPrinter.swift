import KeychainctlCommandLine
import Foundation

/// Prints a password item the way `security find-generic-password` and `dump-keychain` do
/// (``ItemListing``, shared with the per-credential commands' executor), from the attribute
/// values SecItem returns: for dump-keychain and the certificate listings.
enum ItemPrinter {
    /// The lines for one item (each ending in a newline).
    static func render(_ attributes: [String: Any], kind: PasswordCommandSyntax.Item, keychain: URL) -> String {
        ItemListing.render(keychainPath: keychain.path, item: kind) { name in
            attributes[name].flatMap(bytes)
        }
    }

    /// One attribute value; `<NULL>` when absent or empty.
    static func value(_ raw: Any?) -> String {
        ItemListing.value(raw.flatMap(bytes))
    }

    /// The bytes `security` would print for a value: text as UTF-8, data as is, numbers as four
    /// big-endian bytes, dates in the keychain's time format.
    static func bytes(_ raw: Any) -> [UInt8]? {
        switch raw {
        case let string as String:
            return Array(string.utf8)
        case let data as Data:
            return Array(data)
        case let date as Date:
            return SecurityFormat.timeDateBytes(date)
        case let number as NSNumber:
            return SecurityFormat.bigEndianBytes(UInt32(truncatingIfNeeded: number.int64Value))
        default:
            return nil
        }
    }
}
