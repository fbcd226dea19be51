import Foundation
import KeychainServices

// The few SecItem calls everything else is built on. Each one turns a status into a KeychainError
// that carries the operation and the group, and keeps "not found" apart from every other failure:
// only errSecItemNotFound becomes nil/false/success; a locked keychain (-25308) always throws.

extension Keychain {
    /// The data stored under `key`, or nil when no item matches.
    func readData(key: String) throws -> Data? {
        var query = itemQuery(key: key, for: .search)
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne as String
        let (status, result) = secItem.copyMatching(query)
        switch status {
        case errSecSuccess:
            // An item added without data comes back as success with no result (Apple); it
            // holds the empty value.
            guard let result else { return Data() }
            guard let data = ResultObjects.data(result) else { throw KeychainKitError.unexpectedResult(operation: "reading a value") }
            return data
        case errSecItemNotFound:
            return nil
        default:
            throw failure(status, .read)
        }
    }

    /// The attributes (and, when asked, the data) of the items matching `query`, in the
    /// keychain's order; empty when nothing matches.
    func readItems(_ query: [String: Any], includingValues: Bool, limitOne: Bool = false) throws -> [KeychainItem] {
        var query = query
        query[kSecReturnAttributes as String] = true
        if includingValues { query[kSecReturnData as String] = true }
        query[kSecMatchLimit as String] = (limitOne ? kSecMatchLimitOne : kSecMatchLimitAll) as String
        let (status, result) = secItem.copyMatching(query)
        switch status {
        case errSecSuccess:
            let dictionaries: [[String: Any]]
            if let array = ResultObjects.dictionaries(result) {
                dictionaries = array
            } else if let single = ResultObjects.dictionary(result) {
                dictionaries = [single]
            } else {
                throw KeychainKitError.unexpectedResult(operation: "listing items")
            }
            return dictionaries.map { KeychainItem(attributes: $0, itemClass: itemClass) }
        case errSecItemNotFound:
            return []
        default:
            throw failure(status, .read)
        }
    }

    /// Whether an item is stored under `key`, without reading its data.
    func itemExists(key: String) throws -> Bool {
        let (status, _) = secItem.copyMatching(itemQuery(key: key, for: .search))
        switch status {
        case errSecSuccess: return true
        case errSecItemNotFound: return false
        default: throw failure(status, .read)
        }
    }

    /// Stores `data` under `key`, adding the item or replacing the value of the existing one.
    ///
    /// One add-or-update, never read-then-write: `SecItemAdd` first, and on
    /// `errSecDuplicateItem` `SecItemUpdate`. The database's unique key decides which process
    /// wins, so two processes writing at once both succeed and the item ends with one of the two
    /// values. If another process deletes the item between the add and the update, the update
    /// finds nothing and the add is tried again, a bounded number of times.
    func writeData(_ data: Data, key: String) throws {
        let add = try addAttributes(key: key, data: data)
        let changes = try updateAttributes(data: data)
        let query = itemQuery(key: key, for: .update)
        var status = errSecSuccess
        var operation = KeychainError.Operation.add
        for _ in 0..<maximumWriteAttempts {
            if synchronizable == .any {
                // With .any the item may exist only as a synchronized copy; adding first would
                // create a second, local copy next to it. Update whatever exists first.
                (status, operation) = (secItem.update(query, changes), .update)
                if status == errSecSuccess { return }
                guard status == errSecItemNotFound else { break }
            }
            (status, operation) = (secItem.add(add), .add)
            if status == errSecSuccess { return }
            guard status == errSecDuplicateItem else { break }
            (status, operation) = (secItem.update(query, changes), .update)
            if status == errSecSuccess { return }
            // Deleted by someone else since our add: go round again.
            guard status == errSecItemNotFound else { break }
        }
        throw failure(status, operation)
    }

    /// Deletes whatever matches `query`; nothing matching is success.
    func deleteItems(_ query: [String: Any]) throws {
        let status = secItem.delete(query)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw failure(status, .delete) }
    }

    /// A KeychainError for `status` with this keychain's context.
    func failure(_ status: OSStatus, _ operation: KeychainError.Operation) -> KeychainError {
        KeychainError(status: status, operation: operation, accessGroup: accessGroup)
    }
}
