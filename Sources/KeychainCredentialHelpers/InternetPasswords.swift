import Foundation
import KeychainServices

/// The internet passwords the helpers keep, through Apple's SecItem API only, so every rule of
/// the keychain (primary keys, access groups, lock state) holds as for any application.
///
/// Every search, update and delete carries `kSecUseAuthenticationUI = kSecUseAuthenticationUIFail`:
/// a helper runs under git or docker, often with no one to answer, and must never wait at a
/// prompt. An item that would need one, or a locked keychain, fails with
/// errSecInteractionNotAllowed instead.
enum InternetPasswords {
    /// The attributes that select items: each key a `kSecAttr…` name, absent ones unconstrained.
    typealias Query = [String: Any]

    /// One item as a search returns it.
    struct Item {
        var account: String
        var server: String
        var protocolCode: String?
        var port: Int
        var path: String
        var label: String?
        var data: Data
        var persistentReference: Data?
    }

    /// The items matching `query` (at most one with `all` false); empty when none match.
    static func find(_ query: Query, all: Bool) throws(HelperFailure) -> [Item] {
        var search = query
        search[kSecClass as String] = kSecClassInternetPassword
        search[kSecMatchLimit as String] = all ? kSecMatchLimitAll : kSecMatchLimitOne
        search[kSecReturnAttributes as String] = true
        search[kSecReturnData as String] = true
        search[kSecReturnPersistentRef as String] = true
        search[kSecUseAuthenticationUI as String] = kSecUseAuthenticationUIFail
        var result: CFTypeRef?
        let status = SecItemCopyMatching(search as CFDictionary, &result)
        if status == errSecItemNotFound { return [] }
        guard status == errSecSuccess else { throw failure(status, "search") }
        let dictionaries: [[String: Any]]
        if let many = ResultObjects.dictionaries(result) {
            dictionaries = many
        } else if let one = ResultObjects.dictionary(result) {
            dictionaries = [one]
        } else {
            dictionaries = []
        }
        return dictionaries.map(item)
    }

    /// Replaces the data of every item matching `query`; false when none matched.
    static func updateData(_ query: Query, data: Data) throws(HelperFailure) -> Bool {
        try update(query, attributes: [kSecValueData as String: data])
    }

    /// Changes `attributes` of every item matching `query`; false when none matched.
    static func update(_ query: Query, attributes: Query) throws(HelperFailure) -> Bool {
        var search = query
        search[kSecClass as String] = kSecClassInternetPassword
        search[kSecUseAuthenticationUI as String] = kSecUseAuthenticationUIFail
        let status = SecItemUpdate(search as CFDictionary, attributes as CFDictionary)
        if status == errSecItemNotFound { return false }
        guard status == errSecSuccess else { throw failure(status, "update") }
        return true
    }

    /// Adds an item with `attributes` and `data`.
    static func add(_ attributes: Query, data: Data) throws(HelperFailure) {
        var add = attributes
        add[kSecClass as String] = kSecClassInternetPassword
        add[kSecValueData as String] = data
        let status = SecItemAdd(add as CFDictionary, nil)
        guard status == errSecSuccess else { throw failure(status, "add") }
    }

    /// Deletes the item with this persistent reference; false when it has gone meanwhile.
    static func delete(reference: Data) throws(HelperFailure) -> Bool {
        let query: Query = [kSecClass as String: kSecClassInternetPassword,
                            kSecValuePersistentRef as String: reference,
                            kSecUseAuthenticationUI as String: kSecUseAuthenticationUIFail]
        let status = SecItemDelete(query as CFDictionary)
        if status == errSecItemNotFound { return false }
        guard status == errSecSuccess else { throw failure(status, "delete") }
        return true
    }

    /// A failure for `status`, worded for someone who did not call SecItem themselves.
    static func failure(_ status: OSStatus, _ operation: String) -> HelperFailure {
        let name = _statusName(status) ?? "OSStatus"
        if status == errSecInteractionNotAllowed {
            return HelperFailure("the keychain is locked, or the item needs a password prompt, which a credential helper never shows [\(name) \(status)]. "
                + "Unlock it with `keychainctl unlock-keychain` and try again.", status: status)
        }
        let message = SecCopyErrorMessageString(status, nil).map { String(describing: $0) } ?? "The keychain returned status \(status)."
        return HelperFailure("keychain \(operation) failed: \(message) [\(name) \(status)]", status: status)
    }

    private static func item(_ attributes: [String: Any]) -> Item {
        Item(account: text(attributes[kSecAttrAccount as String]) ?? "",
             server: text(attributes[kSecAttrServer as String]) ?? "",
             protocolCode: text(attributes[kSecAttrProtocol as String]),
             port: number(attributes[kSecAttrPort as String]) ?? 0,
             path: text(attributes[kSecAttrPath as String]) ?? "",
             label: text(attributes[kSecAttrLabel as String]),
             data: attributes[kSecValueData as String] as? Data ?? Data(),
             persistentReference: attributes[kSecValuePersistentRef as String] as? Data)
    }

    private static func number(_ value: Any?) -> Int? {
        if let integer = value as? Int { return integer }
        return (value as? NSNumber)?.intValue
    }

    /// A string attribute, whether it was stored as a string or (by Apple code) as UTF-8 data.
    private static func text(_ value: Any?) -> String? {
        if let string = value as? String { return string }
        if let data = value as? Data { return String(data: data, encoding: .utf8) }
        return nil
    }

    /// Secret Service and git protocol names and Apple's codes for them (`kSecAttrProtocol…`):
    /// the table keychaind maps libsecret's `protocol` attribute with, so that the helper, git's
    /// libsecret helper through keychaind and `keychainctl -r` name a protocol alike.
    static let protocolCodes: [String: String] = [
        "http": kSecAttrProtocolHTTP as String, "https": kSecAttrProtocolHTTPS as String, "ftp": kSecAttrProtocolFTP as String,
        "ftps": kSecAttrProtocolFTPS as String, "ssh": kSecAttrProtocolSSH as String, "smtp": kSecAttrProtocolSMTP as String,
        "imap": kSecAttrProtocolIMAP as String, "imaps": kSecAttrProtocolIMAPS as String, "pop3": kSecAttrProtocolPOP3 as String,
        "pop3s": kSecAttrProtocolPOP3S as String, "ldap": kSecAttrProtocolLDAP as String, "ldaps": kSecAttrProtocolLDAPS as String,
        "smb": kSecAttrProtocolSMB as String, "irc": kSecAttrProtocolIRC as String, "ircs": kSecAttrProtocolIRCS as String,
        "telnet": kSecAttrProtocolTelnet as String, "nntp": kSecAttrProtocolNNTP as String, "nntps": kSecAttrProtocolNNTPS as String,
        "socks": kSecAttrProtocolSOCKS as String, "afp": kSecAttrProtocolAFP as String, "rtsp": kSecAttrProtocolRTSP as String,
        "ipp": kSecAttrProtocolIPP as String,
    ]
}
