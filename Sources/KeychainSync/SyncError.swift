/// Why a sync operation failed. Descriptions name what went wrong, never a secret.
package enum SyncError: Error, Sendable, CustomStringConvertible {
    /// The URL is not a PostgreSQL URL this client understands.
    case badURL(String)
    /// This keychain has not joined a sync group (`keychainctl sync join URL`).
    case notJoined
    /// This device is waiting for another device to approve it.
    case pendingApproval(fingerprint: String)
    /// This device was removed from its group.
    case removed
    /// A record or wrapped key names an epoch whose key this device does not hold.
    case missingEpochKey(Int64)
    /// No pending (or, for removal, no member) device has that fingerprint or id.
    case noSuchDevice(String)
    /// The server's schema is newer than this client knows.
    case newerServerSchema(Int32)
    /// The server holds something that makes no sense (a missing group row, say).
    case server(String)
    case crypto(String)

    package var description: String {
        switch self {
        case .badURL(let reason): return "not a usable PostgreSQL URL: \(reason)"
        case .notJoined: return "this keychain is not in a sync group; run 'keychainctl sync join URL' first"
        case .pendingApproval(let fingerprint):
            return "this device (\(fingerprint)) waits for approval: run 'keychainctl sync approve \(fingerprint)' on a device of the group"
        case .removed: return "this device was removed from its sync group"
        case .missingEpochKey(let epoch): return "this device holds no group key for epoch \(epoch)"
        case .noSuchDevice(let name): return "no such device in the group: \(name)"
        case .newerServerSchema(let version): return "the sync database has schema \(version), newer than this version knows"
        case .server(let reason): return "unexpected sync database contents: \(reason)"
        case .crypto(let reason): return reason
        }
    }
}
