#if Sync  // built only with the Sync trait (Package.swift)
import Foundation
import KeychainStore
@testable import KeychainSync
import Testing

/// `keychainctl sync …` runs keychain-sync with the same arguments.
@Suite("Sync: keychainctl sync", .serialized)
struct SyncCommandLineTests {
    @Test("keychainctl sync forwards to keychain-sync: its help, its errors and its work")
    func forwards() throws {
        let device = try SyncDevice("cli")
        let help = try device.cli(["sync", "--help"], program: "keychainctl")
        #expect(help.status == 0)
        #expect(help.output.contains("remove-device"))

        let notJoined = try device.cli(["sync", "status", "--keychain", device.keychainURL.path], program: "keychainctl")
        #expect(notJoined.status == 1)
        #expect(notJoined.output.contains("not in a sync group"))

        let server = try PostgresServer()
        defer { server.stop() }
        let joined = try device.cli(["sync", "join", server.url, "--keychain", device.keychainURL.path], program: "keychainctl")
        #expect(joined.status == 0, "\(joined.output)")
        #expect(joined.output.contains("created a new sync group"))
        try device.add("via-keychainctl", "x")
        let now = try device.cli(["sync", "now", "--keychain", device.keychainURL.path], program: "keychainctl")
        #expect(now.output.contains("pushed 1"), "\(now.output)")
    }
}
#endif
