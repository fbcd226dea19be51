#if Sync  // built only with the Sync trait (Package.swift)
/// Why a sync operation failed. Descriptions name what went wrong, never a secret; text that
/// came from the server is made safe to print (``TerminalText``).
package enum SyncError: Error, Sendable, CustomStringConvertible {
    /// The URL is not a PostgreSQL URL this client understands.
    case badURL(String)
    /// This keychain has not joined a sync group (`keychainctl sync join URL`).
    case notJoined
    /// This device is waiting for another device to approve it.
    case pendingApproval(fingerprint: String)
    /// This device was removed from its group.
    case removed
    /// A record or key share names an epoch whose key this device does not hold.
    case missingEpochKey(Int64)
    /// No pending device (or, for removal, no member) has that fingerprint.
    case noSuchDevice(String)
    /// The server's schema is newer than this client knows.
    case newerServerSchema(Int32)
    /// The server holds something that makes no sense (a missing group row, say).
    case server(String)
    case crypto(String)
    /// A roster statement the server handed over breaks the chain or its rules: nothing of it
    /// is believed, and the device does not sync until the server shows the genuine chain.
    case untrustedRoster(String)
    /// The server showed something that contradicts what members signed or sealed (an old
    /// manifest, say): refused, as withholding would be.
    case untrustedServer(String)
    /// The database holds a group already: a device joins it only by its fingerprint.
    case groupFingerprintNeeded
    /// The database's group is not the one whose fingerprint the person gave.
    case wrongGroup(expected: String, found: String?)
    /// After an upgrade a member established the group's roster anew: this device joins again.
    case rosterReestablished(groupFingerprint: String?)
    /// The person did not confirm an approval.
    case notConfirmed

    package var description: String {
        switch self {
        case .badURL(let reason): return "not a usable PostgreSQL URL: \(reason)"
        case .notJoined: return "this keychain is not in a sync group; run 'keychainctl sync join URL' first"
        case .pendingApproval(let fingerprint):
            return "this device (\(fingerprint)) waits for approval: run 'keychainctl sync approve \(fingerprint)' on a device of the group"
        case .removed: return "this device was removed from its sync group"
        case .missingEpochKey(let epoch): return "this device holds no group key for epoch \(epoch)"
        case .noSuchDevice(let name): return "no such device in the group: \(TerminalText.safe(name))"
        case .newerServerSchema(let version): return "the sync database has schema \(version), newer than this version knows"
        case .server(let reason): return "unexpected sync database contents: \(reason)"
        case .crypto(let reason): return reason
        case .untrustedRoster(let reason):
            return "the server's list of the group's members cannot be trusted (\(reason)); nothing was synced"
        case .untrustedServer(let reason): return "the server's answer cannot be trusted (\(reason)); nothing of it was applied"
        case .groupFingerprintNeeded:
            return "this database holds a sync group already: to join it, run 'keychainctl sync status' on one of its devices "
                + "and give the group fingerprint it shows: keychainctl sync join URL --group FINGERPRINT"
        case .wrongGroup(let expected, let found):
            return "the database's sync group is \(found ?? "missing"), not the group \(expected) this device was told to join"
        case .rosterReestablished(let group):
            return "after an upgrade, a member established this group's roster again\(group.map { " (group \($0))" } ?? ""): "
                + "join again with 'keychainctl sync join URL --group FINGERPRINT' (the fingerprint 'sync status' shows on that member)"
        case .notConfirmed: return "not approved"
        }
    }
}
#endif
