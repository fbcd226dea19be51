import Foundation
import KeychainServices

// The dictionaries this wrapper hands to the SecItem API. Keys are the kSec constants, so the same
// code talks to Apple's Security framework and to the Linux implementation.

extension Keychain {
    /// What a dictionary is for: the rules for `kSecAttrSynchronizable` and the `kSecUse…` keys
    /// differ between adding and the other calls.
    enum Purpose {
        case add, search, update, delete
    }

    /// The attributes every item of this keychain shares: class, service or server, access
    /// group, and synchronization.
    func baseQuery(for purpose: Purpose) -> [String: Any] {
        var query: [String: Any] = [kSecClass as String: itemClassValue]
        switch itemClass {
        case .genericPassword:
            query[kSecAttrService as String] = service ?? ""
        case .internetPassword:
            if let endpoint {
                query[kSecAttrServer as String] = endpoint.host
                if let port = endpoint.port { query[kSecAttrPort as String] = port }
                if let path = endpoint.path { query[kSecAttrPath as String] = path }
            }
            if let protocolType { query[kSecAttrProtocol as String] = protocolType.rawValue }
            if let authenticationType { query[kSecAttrAuthenticationType as String] = authenticationType.rawValue }
        }
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        switch synchronizable {
        case .no:
            // Apple reads a missing kSecAttrSynchronizable as "not synchronized" in every call.
            break
        case .yes:
            query[kSecAttrSynchronizable as String] = true
        case .any:
            // kSecAttrSynchronizableAny on add would silently make a local item (Apple); leave it
            // out there so that the intent is explicit.
            if purpose != .add { query[kSecAttrSynchronizable as String] = kSecAttrSynchronizableAny as String }
        }
        // Adding never prompts, so the prompt goes only with the other calls; the context goes
        // with every call, as an add may need the credential it carries.
        if purpose != .add, let authenticationPrompt { query[kSecUseOperationPrompt as String] = authenticationPrompt }
        if let authenticationContext { query[kSecUseAuthenticationContext as String] = authenticationContext.context }
        return query
    }

    /// The query naming the item stored under `key`.
    func itemQuery(key: String, for purpose: Purpose) -> [String: Any] {
        var query = baseQuery(for: purpose)
        query[kSecAttrAccount as String] = key
        return query
    }

    /// Everything a new item carries: identity, data, label, comment, protection.
    func addAttributes(key: String, data: Data) throws -> [String: Any] {
        var attributes = itemQuery(key: key, for: .add)
        attributes[kSecValueData as String] = data
        try addDescriptiveAttributes(to: &attributes)
        return attributes
    }

    /// What `set` changes on an item that already exists.
    func updateAttributes(data: Data) throws -> [String: Any] {
        var attributes: [String: Any] = [kSecValueData as String: data]
        try addDescriptiveAttributes(to: &attributes)
        return attributes
    }

    /// Label, comment and protection, each only when configured, so that writing a value never
    /// clears what another configuration set.
    private func addDescriptiveAttributes(to attributes: inout [String: Any]) throws {
        if let label { attributes[kSecAttrLabel as String] = label }
        if let comment { attributes[kSecAttrComment as String] = comment }
        if let accessControl = try makeAccessControl() {
            // Apple rejects kSecAttrAccessible next to kSecAttrAccessControl even when they agree;
            // the access control already carries the accessibility.
            attributes[kSecAttrAccessControl as String] = accessControl
        } else if let accessibility {
            attributes[kSecAttrAccessible as String] = accessibility.rawValue
        }
    }

    /// The class constant for `kSecClass`.
    private var itemClassValue: String {
        switch itemClass {
        case .genericPassword: kSecClassGenericPassword as String
        case .internetPassword: kSecClassInternetPassword as String
        }
    }
}
