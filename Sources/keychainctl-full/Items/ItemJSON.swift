import KeychainctlCommandLine
import Foundation
import KeychainServices

/// The `--json` form of a password item, for scripts (`security` has none).
///
/// Each item is one object whose keys are the attributes' Keychain Services names without the
/// `kSecAttr` prefix, in lowerCamelCase (`kSecAttrAccessGroup` is `accessGroup`), plus `class`
/// ("genp" or "inet", the `kSecClass` values) and `keychain` (the file's path). This table is
/// the one place those names are chosen. An attribute the item does not have is left out.
/// Dates are ISO 8601 in UTC; numbers and flags are JSON numbers and booleans; creator and
/// type, four-character codes stored as numbers, are their four characters when printable.
/// Text that is not UTF-8 (such as `generic`, which is bytes) appears as base64 under the
/// name with `Base64` appended. Keys are sorted, so the output is stable.
///
/// The secret is never in it unless asked for (`-w`, `-g`, `dump-keychain -d`): then it is
/// `password` when it is UTF-8, else `passwordBase64`.
enum ItemJSON {
    enum Value: Sendable { case text, bytes, number, flag, date, code }

    /// The attribute key (the `kSecAttr…` constant's value), its JSON name, and its form.
    static var attributes: [(key: CFString, name: String, value: Value)] { [
        (kSecAttrAccount, "account", .text),
        (kSecAttrService, "service", .text),
        (kSecAttrLabel, "label", .text),
        (kSecAttrDescription, "description", .text),
        (kSecAttrComment, "comment", .text),
        (kSecAttrGeneric, "generic", .bytes),
        (kSecAttrCreator, "creator", .code),
        (kSecAttrType, "type", .code),
        (kSecAttrIsInvisible, "isInvisible", .flag),
        (kSecAttrIsNegative, "isNegative", .flag),
        (kSecAttrServer, "server", .text),
        (kSecAttrProtocol, "protocol", .text),
        (kSecAttrPort, "port", .number),
        (kSecAttrPath, "path", .text),
        (kSecAttrSecurityDomain, "securityDomain", .text),
        (kSecAttrAuthenticationType, "authenticationType", .text),
        (kSecAttrCreationDate, "creationDate", .date),
        (kSecAttrModificationDate, "modificationDate", .date),
        (kSecAttrAccessGroup, "accessGroup", .text),
        (kSecAttrAccessible, "accessible", .text),
        (kSecAttrSynchronizable, "synchronizable", .flag),
    ] }

    /// The object for one item. `secret` is included only when not nil.
    static func object(_ attributes: [String: Any], kind: PasswordCommandSyntax.Item, keychain: URL, secret: Data?) -> [String: Any] {
        var object: [String: Any] = ["class": kind.classCode, "keychain": keychain.path]
        for attribute in self.attributes {
            guard let raw = attributes[attribute.key as String] else { continue }
            put(raw, as: attribute.value, name: attribute.name, into: &object)
        }
        if let secret { put(secret, as: .bytes, name: "password", into: &object) }
        return object
    }

    /// The text to print for one object or an array of them: sorted keys, indented, one
    /// trailing newline.
    static func text(_ value: Any) -> String {
        let options: JSONSerialization.WritingOptions = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        guard let data = try? JSONSerialization.data(withJSONObject: value, options: options) else { return "{}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    private static func put(_ raw: Any, as value: Value, name: String, into object: inout [String: Any]) {
        switch value {
        case .text, .bytes:
            if let string = raw as? String {
                object[name] = string
            } else if let data = raw as? Data {
                if let string = String(data: data, encoding: .utf8) {
                    object[name] = string
                } else {
                    object[name + "Base64"] = data.base64EncodedString()
                }
            }
        case .number:
            if let number = raw as? NSNumber { object[name] = number.int64Value }
        case .flag:
            if let number = raw as? NSNumber { object[name] = number.boolValue } else if let flag = raw as? Bool { object[name] = flag }
        case .date:
            if let date = raw as? Date { object[name] = iso8601(date) }
        case .code:
            guard let number = raw as? NSNumber else { if let string = raw as? String { object[name] = string }; return }
            let packed = UInt32(truncatingIfNeeded: number.int64Value)
            let bytes = SecurityFormat.bigEndianBytes(packed)
            if bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
                object[name] = String(decoding: bytes, as: UTF8.self)
            } else {
                object[name] = Int64(packed)
            }
        }
    }

    /// ISO 8601 in UTC, with milliseconds when the date has them.
    static func iso8601(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        if date.timeIntervalSince1970.truncatingRemainder(dividingBy: 1) != 0 {
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        }
        return formatter.string(from: date)
    }
}
