#if Sync  // built only with the Sync trait (Package.swift)
import Foundation
@testable import KeychainSync
import Testing

/// A database set up by `keychain-sync server-setup`, each device connecting as a role of its
/// own (docs/sync.md, "The server"): everything works, and a device's credentials change no
/// device row but its own and none of the group's decisions.
@Suite("Sync: a database role per device", .serialized)
struct SyncLeastPrivilegeTests {
    /// Runs SQL as `role`; the status and output, so that a refusal can be checked.
    static func sql(_ server: PostgresServer, as role: String, _ statement: String) throws -> (status: Int32, output: String) {
        try PostgresServer.run(["/usr/bin/psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", server.folder.path,
                                "-U", role, "-d", "postgres", "-c", statement])
    }

    @Test("Each device its own role: join, approve, sync and remove work; another device's row, the roster and the key shares stay out of its reach")
    func rolePerDevice() async throws {
        let server = try PostgresServer()
        defer { server.stop() }
        let setup = try PostgresServer.run([try SyncDevice.executable("keychain-sync").path, "server-setup", "--device", "dev_a", "--device", "dev_b"])
        try #require(setup.status == 0, "\(setup.output)")
        try server.sql(setup.output)

        let a = try SyncDevice("a"), b = try SyncDevice("b")
        let url = { (role: String) in "postgresql://\(role)@/postgres?host=\(server.folder.path)" }
        let created = try a.cli(["join", url("dev_a"), "--name", "desk"])
        #expect(created.status == 0, "\(created.output)")
        let group = try #require(SyncDevice.groupFingerprint(in: created.output), "\(created.output)")
        let joined = try b.cli(["join", url("dev_b"), "--name", "laptop", "--group", group])
        let fingerprint = try #require(SyncDevice.fingerprint(in: joined.output), "\(joined.output)")
        #expect(try a.cli(["approve", fingerprint]).status == 0)
        try a.add("shared", "from a")
        try b.add("other", "from b")
        for _ in 0..<2 {
            try a.syncNow()
            try b.syncNow()
        }
        #expect(try a.contents() == ["shared": "from a", "other": "from b"])
        #expect(try b.contents() == ["shared": "from a", "other": "from b"])

        // b's credentials against a's row: no change, silently (row-level security)...
        let deviceA = try await a.engine().deviceID()
        _ = try SyncLeastPrivilegeTests.sql(server, as: "dev_b", "UPDATE sync_devices SET name = 'owned', pulled_revision = 0 WHERE device_id = '\(deviceA)'")
        #expect(try server.sql("SELECT name FROM sync_devices WHERE device_id = '\(deviceA)'") == "desk")
        // ...nor a row written in its name, nor any rewrite or deletion of the group's decisions.
        let refused = [
            "INSERT INTO sync_devices (group_id, device_id, public_key, name, status, db_role) SELECT group_id, 'x', '\\x00', 'x', 'pending', 'dev_a' FROM sync_groups",
            "DELETE FROM sync_roster",
            "UPDATE sync_roster SET statement = '\\x00'",
            "UPDATE sync_key_shares SET share = '\\x00'",
            "DELETE FROM sync_key_shares",
            "DROP TABLE sync_records",
        ]
        for statement in refused {
            let result = try SyncLeastPrivilegeTests.sql(server, as: "dev_b", statement)
            #expect(result.status != 0 && (result.output.contains("permission denied") || result.output.contains("row-level security")
                                          || result.output.contains("must be owner")), "\(statement): \(result.output)")
        }

        // A removal re-seals every record under the new epoch with a device's own privileges.
        let removed = try a.cli(["remove-device", fingerprint])
        #expect(removed.status == 0, "\(removed.output)")
        try a.update("shared", "after b left")
        try a.syncNow()
        #expect(try b.cli(["now"]).output.contains("removed"))
        #expect(try b.secret("shared") == "from a")
    }
}
#endif
