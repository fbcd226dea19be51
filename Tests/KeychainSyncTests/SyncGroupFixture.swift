#if Sync  // built only with the Sync trait (Package.swift)
import Foundation
@testable import KeychainSync
import Testing

/// A server and devices that have all joined one group: the first created it, the others were
/// approved by it, each through the `keychain-sync` executable as separate processes.
final class SyncGroupFixture: Sendable {
    let server: PostgresServer
    let devices: [SyncDevice]
    /// What the first device printed, and every other was given to join.
    let groupFingerprint: String

    init(devices count: Int) throws {
        server = try PostgresServer()
        devices = try (0..<count).map { try SyncDevice("device\($0)") }
        let first = try devices[0].cli(["join", server.url, "--name", devices[0].name])
        try #require(first.status == 0, "join failed: \(first.output)")
        try #require(first.output.contains("created a new sync group"))
        groupFingerprint = try #require(SyncDevice.groupFingerprint(in: first.output), "\(first.output)")
        for device in devices.dropFirst() {
            let joined = try device.cli(["join", server.url, "--name", device.name, "--group", groupFingerprint])
            try #require(joined.status == 0, "join failed: \(joined.output)")
            let fingerprint = try #require(SyncDevice.fingerprint(in: joined.output), "no fingerprint in: \(joined.output)")
            let approved = try devices[0].cli(["approve", fingerprint])
            try #require(approved.status == 0, "approve failed: \(approved.output)")
            try #require(approved.output.contains(fingerprint))
        }
    }

    subscript(index: Int) -> SyncDevice { devices[index] }

    /// Syncs every device twice, in order, so that each sees what every other pushed.
    func syncAll() throws {
        for _ in 0..<2 { for device in devices { try device.syncNow() } }
    }

    deinit { server.stop() }
}
#endif
