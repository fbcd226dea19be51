public import Foundation
import KeychainServices

/// The attributes of a stored item, as ``Keychain/allItems(includingValues:)-3f8n6`` and
/// ``Keychain/attributes(_:)-2ccwo`` return them.
///
/// ``value`` is filled only when the caller asked for values; the description and the mirror
/// never show it, so printing or dumping an item does not reveal the secret.
public struct KeychainItem: Sendable, Hashable {
    /// The kind of item.
    public let itemClass: Keychain.ItemClass
    /// The key the value is stored under (`kSecAttrAccount`).
    public let key: String
    /// The service of a generic password.
    public let service: String?
    /// The server (host) of an internet password.
    public let server: String?
    /// The protocol of an internet password.
    public let protocolType: ProtocolType?
    /// The authentication type of an internet password.
    public let authenticationType: AuthenticationType?
    /// The port of an internet password, when one was stored.
    public let port: Int?
    /// The path of an internet password, when one was stored.
    public let path: String?
    /// The access group the item is in.
    public let accessGroup: String?
    /// When the item can be read.
    public let accessibility: Accessibility?
    /// Whether the item is synchronized to the user's other devices.
    public let synchronizable: Bool
    /// The label (`kSecAttrLabel`).
    public let label: String?
    /// The comment (`kSecAttrComment`).
    public let comment: String?
    /// When the item was added.
    public let creationDate: Date?
    /// When the item was last changed.
    public let modificationDate: Date?
    /// The stored value, only when the caller asked for values.
    public internal(set) var value: Data?

    /// Reads an attribute dictionary as the SecItem API returns it (four-letter keys).
    init(attributes: [String: Any], itemClass: Keychain.ItemClass) {
        func string(_ key: CFString) -> String? {
            switch attributes[key as String] {
            case let text as String: return text
            // Blob attributes keep the type they were written with; another program may have
            // written the account as data.
            case let data as Data: return String(data: data, encoding: .utf8)
            default: return nil
            }
        }
        self.itemClass = itemClass
        self.key = string(kSecAttrAccount) ?? ""
        self.service = string(kSecAttrService)
        self.server = string(kSecAttrServer)
        self.protocolType = string(kSecAttrProtocol).flatMap(ProtocolType.init(rawValue:))
        self.authenticationType = string(kSecAttrAuthenticationType).flatMap(AuthenticationType.init(rawValue:))
        let port = (attributes[kSecAttrPort as String] as? NSNumber)?.intValue
        self.port = port == 0 ? nil : port
        let path = string(kSecAttrPath)
        self.path = path?.isEmpty == true ? nil : path
        self.accessGroup = string(kSecAttrAccessGroup)
        self.accessibility = string(kSecAttrAccessible).flatMap(Accessibility.init(rawValue:))
        self.synchronizable = (attributes[kSecAttrSynchronizable as String] as? NSNumber)?.boolValue ?? false
        self.label = string(kSecAttrLabel)
        self.comment = string(kSecAttrComment)
        self.creationDate = attributes[kSecAttrCreationDate as String] as? Date
        self.modificationDate = attributes[kSecAttrModificationDate as String] as? Date
        self.value = attributes[kSecValueData as String] as? Data
    }
}

extension KeychainItem: CustomStringConvertible, CustomReflectable {
    /// The item's identity and dates; the value is shown only as present or absent.
    public var description: String {
        var parts = ["key: \"\(key)\""]
        if let service { parts.append("service: \"\(service)\"") }
        if let server { parts.append("server: \"\(server)\"") }
        if let protocolType { parts.append("protocol: \(protocolType)") }
        if let port { parts.append("port: \(port)") }
        if let path { parts.append("path: \"\(path)\"") }
        if let accessGroup { parts.append("accessGroup: \"\(accessGroup)\"") }
        if let accessibility { parts.append("accessibility: \(accessibility)") }
        if synchronizable { parts.append("synchronizable") }
        if let label { parts.append("label: \"\(label)\"") }
        if let modificationDate { parts.append("modified: \(modificationDate)") }
        if value != nil { parts.append("value: <redacted>") }
        return "KeychainItem(" + parts.joined(separator: ", ") + ")"
    }

    /// A mirror without the value, so that `dump` and debuggers do not print the secret.
    public var customMirror: Mirror {
        Mirror(self, children: [
            "key": key, "service": service as Any, "server": server as Any,
            "accessGroup": accessGroup as Any, "accessibility": accessibility as Any,
            "synchronizable": synchronizable, "label": label as Any, "comment": comment as Any,
            "creationDate": creationDate as Any, "modificationDate": modificationDate as Any,
            "value": value == nil ? "nil" : "<redacted>",
        ], displayStyle: .struct)
    }
}
