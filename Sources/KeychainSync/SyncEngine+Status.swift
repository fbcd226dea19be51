#if Sync  // built only with the Sync trait (Package.swift)
import Foundation
import KeychainStore
import PostgresNIO

extension SyncEngine {
    /// What `sync status` shows. Device names are as the devices gave them: print them through
    /// ``TerminalText``.
    package struct Status: Sendable {
        package var url: String
        /// How the connection is protected (`sslmode`, or a Unix socket).
        package var transport: String
        package var deviceFingerprint: String
        /// The group's fingerprint, which a device joining it is given (`join --group`).
        package var groupFingerprint: String?
        /// A fingerprint of the roster as verified here: equal on two devices that hold the same history.
        package var rosterFingerprint: String?
        package var epoch: Int64?
        package var devices: [Device]
        package var lastSync: String?
        /// Local changes not yet on the server (nil while this device holds no group key).
        package var pendingChanges: Int?
        package var rejectedRecords: Int64
        package var replayedRecords: Int64
        /// Why the server could not be asked, or could not be believed, when it could not.
        package var serverProblem: String?
    }

    package func status() async throws -> Status {
        guard let text = try state.string(Setting.url) else { throw SyncError.notJoined }
        let url = try SyncServerURL(text)
        var status = Status(url: url.redacted, transport: url.transportDescription, deviceFingerprint: "", devices: [],
                            lastSync: try state.string(Setting.lastSync),
                            rejectedRecords: try state.integer(Setting.rejected) ?? 0,
                            replayedRecords: try state.integer(Setting.replayed) ?? 0)
        if try isLegacyState() {
            status.serverProblem = SyncError.rosterReestablished(groupFingerprint: nil).description
            return status
        }
        status.deviceFingerprint = try deviceFingerprint()
        status.groupFingerprint = try state.string(Setting.groupFingerprint)
        status.rosterFingerprint = try localRoster().headFingerprint
        if let keys = try heldKeys() {
            status.epoch = keys.latestEpoch
            status.pendingChanges = try pendingChanges(keys: keys).count
        }
        do {
            status.devices = try await withConnection { [self] connection in
                // A device not (or no longer) admitted still shows the group as it verified it.
                do { _ = try await refresh(connection) } catch SyncError.pendingApproval {} catch SyncError.removed {}
                return try await devices(connection, roster: try localRoster())
            }
            status.rosterFingerprint = try localRoster().headFingerprint
        } catch {
            status.serverProblem = String(describing: error)
        }
        return status
    }
}
#endif
