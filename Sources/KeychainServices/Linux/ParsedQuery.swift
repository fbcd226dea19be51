#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Foundation
import KeychainStore

/// A failure found while reading a dictionary, with the status Apple gives for it.
struct StatusError: Error {
    let status: OSStatus
    init(_ status: OSStatus) { self.status = status }
}

/// The four calls, which accept different keys.
enum Operation { case add, copyMatching, update, delete }

/// The class a dictionary names: a table, or identities (a join of certificates and keys).
enum RequestClass: Equatable {
    case table(ItemClass)
    case identity

    var code: String {
        switch self {
        case .table(let itemClass): return itemClass.code
        case .identity: return "idnt"
        }
    }
}

/// A persistent reference: Apple's 20-byte `class ‖ UUID` form or the legacy 12-byte
/// `class ‖ rowid` form (still parsed, as Security does, but it names no item here).
struct PersistentReference {
    let classCode: String
    /// The 16-byte identity, or nil for a legacy rowid reference.
    let identity: Data?

    static let classCodes: Set<String> = ["genp", "inet", "cert", "keys", "idnt", "apls"]

    init(_ data: Data) throws(StatusError) {
        guard data.count == 20 || data.count == 12,
              let code = String(bytes: data.prefix(4), encoding: .ascii),
              PersistentReference.classCodes.contains(code) else { throw StatusError(errSecParam) }
        classCode = code
        identity = data.count == 20 ? Data(data.dropFirst(4)) : nil
    }
}

/// How many results a search wants.
enum MatchLimit: Equatable {
    case count(Int)
    case all

    /// Apple treats a numeric limit of 1 exactly like kSecMatchLimitOne.
    var isOne: Bool { self == .count(1) }
    var maximum: Int? {
        if case .count(let n) = self { return n }
        return nil
    }
}

/// A parsed SecItem dictionary.
struct ParsedQuery {
    var requestClass: RequestClass = .table(.genericPassword)
    var attributes: [String: AttributeValue] = [:]
    /// `kSecAttrSynchronizable = kSecAttrSynchronizableAny`.
    var anySynchronizable = false
    var returnData = false
    var returnAttributes = false
    var returnRef = false
    var returnPersistentRef = false
    var limit: MatchLimit?
    /// Search keys other than the limit (`m_*`).
    var matchKeys: [String: Any] = [:]
    var valueData: Data?
    /// `kSecValueRef`: a key or certificate standing for the item.
    var valueReference: (any KeychainItemReference)?
    var persistentReference: PersistentReference?
    var useItemList = false
    /// `kSecUseTombstones`: whether deletes (and key-changing updates) leave tombstones; nil
    /// leaves the choice to the keychain (synchronizable items only).
    var useTombstones: Bool?
    /// `kSecUseAuthenticationUI`'s value, `kSecUseNoAuthenticationUI` = true counting as Fail.
    var authenticationUI: String?
    var operationPrompt: String?
    var authenticationContext: AnyObject?
    /// Whether `authenticationContext` came from `kSecUseCredentialReference` (its externalised
    /// form, data) rather than `kSecUseAuthenticationContext` (an LAContext).
    var authenticationContextIsCredentialReference = false
    var accessControl: SecAccessControl?

    var returnsAnything: Bool { returnData || returnAttributes || returnRef || returnPersistentRef }
    var isAuthenticationSkip: Bool { authenticationUI == "u_AuthUIS" }

    /// The engine's form of the query's filters.
    func itemQuery(_ itemClass: ItemClass) -> ItemQuery {
        ItemQuery(itemClass: itemClass, filters: attributes, persistentReference: persistentReference?.identity,
                  anySynchronizable: anySynchronizable)
    }
}
#endif
