import Foundation
import KeychainCallerIdentity
import KeychainStore
import KeychainTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Clients in a fresh root made by bubblewrap, with a `/.flatpak-info` written as Flatpak
/// writes it: the resolver reads it through /proc/PID/root as it would read Flatpak's own.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/bwrap"), "needs bubblewrap (scripts/install-system-packages.sh)"))
struct FlatpakSandboxTests {
    static func info(_ appID: String, instance: String) -> String {
        "[Application]\nname=\(appID)\nruntime=runtime/org.example.Platform/x86_64/1\n\n[Instance]\ninstance-id=\(instance)\n"
    }

    /// Connects a sandboxed client whose root gets `rootEntry`, and resolves it.
    static func resolveSandboxed(_ folder: TemporaryFolder, rootEntry: [String]) throws -> CallerIdentity {
        let listener = try UnixListener(path: folder.path + "/keychaind.socket")
        let client = try Callers.sandboxedClient(socket: listener.path, folder: folder.path, rootEntry: rootEntry)
        defer { Callers.stop(client) }
        let connection = try listener.accept()
        defer { close(connection) }
        return try CallerIdentityResolver.resolve(socket: connection)
    }

    @Test(arguments: ["org.example.A", "org.example.B"])
    func aSandboxedClientIsItsFlatpakAppAndGetsItsOwnGroup(appID: String) throws {
        let folder = try TemporaryFolder()
        let info = try folder.write("info", Array(Self.info(appID, instance: "2917").utf8))
        let caller = try Self.resolveSandboxed(folder, rootEntry: ["--ro-bind", info, "/.flatpak-info"])
        #expect(caller.flatpak == FlatpakApp(applicationID: appID, instanceID: "2917"))
        #expect(caller.isSandboxed)
        #expect(!caller.sharesRoot)
        #expect(caller.script == nil)

        let granted = AccessPolicy(rules: []).entitlements(for: caller)
        #expect(granted.reason == .sandboxDefault)
        #expect(granted.applicationIdentifier == "flatpak." + appID)
        #expect(granted.keychainAccessGroups == ["flatpak." + appID])
        #expect(!granted.clientIdentity.accessGroups.contains(ClientIdentity.sharedGroup))

        // Only a rule gives a sandboxed app the shared group.
        let rule = try AccessRule.parse("""
            flatpak = \(appID)
            application-identifier = \(appID)
            keychain-access-groups = \(appID), \(ClientIdentity.sharedGroup)
            """, source: "apps.d/test.conf")
        let ruled = AccessPolicy(rules: [rule]).entitlements(for: caller)
        #expect(ruled.reason == .rule(source: "apps.d/test.conf"))
        #expect(ruled.keychainAccessGroups == [appID, ClientIdentity.sharedGroup])
        // A rule for another app does not apply.
        let other = try AccessRule.parse("flatpak = org.example.Other\nkeychain-access-groups = \(ClientIdentity.sharedGroup)", source: "o.conf")
        #expect(AccessPolicy(rules: [other]).entitlements(for: caller).reason == .sandboxDefault)
    }

    /// A fresh root without `.flatpak-info` (a container, say) is not a Flatpak app.
    @Test func aRootWithoutFlatpakInfoIsNoFlatpak() throws {
        let folder = try TemporaryFolder()
        let caller = try Self.resolveSandboxed(folder, rootEntry: [])
        #expect(caller.flatpak == nil)
        #expect(!caller.sharesRoot)
    }

    enum BadInfo: String, CaseIterable, Sendable {
        case symbolicLink, directory, tooLarge, notUTF8, noInstance, invalidAppID, notAKeyFile
    }

    /// A `.flatpak-info` that is there but not valid refuses the caller: it is in some sandbox
    /// and must not pass for a host program (which would give it the shared group).
    @Test(arguments: BadInfo.allCases)
    func anInvalidFlatpakInfoIsRefused(_ bad: BadInfo) throws {
        let folder = try TemporaryFolder()
        let entry: [String]
        switch bad {
        case .symbolicLink:
            let target = try folder.write("info", Array(Self.info("org.example.A", instance: "1").utf8))
            entry = ["--symlink", target, "/.flatpak-info"]
        case .directory:
            entry = ["--dir", "/.flatpak-info"]
        case .tooLarge:
            let padding = "# " + String(repeating: "p", count: FlatpakApp.largestFile) + "\n"
            entry = ["--ro-bind", try folder.write("info", Array((padding + Self.info("org.example.A", instance: "1")).utf8)), "/.flatpak-info"]
        case .notUTF8:
            entry = ["--ro-bind", try folder.write("info", Array(Self.info("org.example.A", instance: "1").utf8) + [0x23, 0xFF, 0xFE, 0x0A]), "/.flatpak-info"]
        case .noInstance:
            entry = ["--ro-bind", try folder.write("info", Array("[Application]\nname=org.example.A\n".utf8)), "/.flatpak-info"]
        case .invalidAppID:
            entry = ["--ro-bind", try folder.write("info", Array(Self.info("org.example.A/../B", instance: "1").utf8)), "/.flatpak-info"]
        case .notAKeyFile:
            entry = ["--ro-bind", try folder.write("info", Array("name=org.example.A\n[Instance]\ninstance-id=1\n".utf8)), "/.flatpak-info"]
        }
        #expect {
            try Self.resolveSandboxed(folder, rootEntry: entry)
        } throws: { error in
            guard case .invalidFlatpakInfo = error as? CallerIdentityError else { return false }
            return true
        }
    }
}
