import Foundation
import KeychainStore
import PostgresNIO

extension SyncEngine {
    /// What `sync status` shows.
    package struct Status: Sendable {
        package var url: String
        package var deviceFingerprint: String
        package var groupFingerprint: String?
        package var epoch: Int64?
        package var devices: [Device]
        package var lastSync: String?
        /// Local changes not yet on the server (nil while this device holds no group key).
        package var pendingChanges: Int?
        package var rejectedRecords: Int64
        package var replayedRecords: Int64
        /// Why the server could not be asked, when it could not.
        package var serverProblem: String?
    }

    package func status() async throws -> Status {
        guard let text = try state.string(Setting.url) else { throw SyncError.notJoined }
        let url = try SyncServerURL(text)
        var status = Status(url: url.redacted, deviceFingerprint: try deviceFingerprint(), devices: [],
                            lastSync: try state.string(Setting.lastSync),
                            rejectedRecords: try state.integer(Setting.rejected) ?? 0,
                            replayedRecords: try state.integer(Setting.replayed) ?? 0)
        if let keys = try heldKeys() {
            status.groupFingerprint = keys.fingerprint
            status.epoch = keys.latestEpoch
            status.pendingChanges = try pendingChanges(keys: keys).count
        }
        do {
            status.devices = try await withConnection { [self] connection in try await devices(connection) }
        } catch {
            status.serverProblem = String(describing: error)
        }
        return status
    }
}
