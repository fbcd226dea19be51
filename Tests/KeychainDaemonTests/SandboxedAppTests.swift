import Foundation
import Testing

/// Flatpak apps over D-Bus are kept apart: each sees only the items of its own access group
/// (`flatpak.<app id>`), a host program with no rule only the shared group, and a rule of the
/// user's policy folder can give an app more (docs/isolation.md). The clients are real:
/// secret-tool and Python's jeepney, in bubblewrap roots with a written `/.flatpak-info`, and on
/// the host.
@Suite(.enabled(if: DaemonSandbox.canMakeSandboxes, "needs bubblewrap (scripts/install-system-packages.sh)"))
struct SandboxedAppTests {
    static let appA = "org.example.A"
    static let appB = "org.example.B"
    static let key = ["service", "demo", "username", "ann"]

    /// Python (Debian's, with jeepney) asks for one item's secret with `GetSecret` and with the
    /// service's `GetSecrets`, and reads the login collection's `Items`; it prints what each gave.
    static let probe = """
    import sys
    from jeepney import DBusAddress, new_method_call, MessageType, HeaderFields
    from jeepney.io.blocking import open_dbus_connection
    conn = open_dbus_connection(bus='SESSION')
    def call(path, interface, method, signature=None, body=()):
        address = DBusAddress(path, bus_name='org.freedesktop.secrets', interface=interface)
        reply = conn.send_and_get_reply(new_method_call(address, method, signature, body))
        if reply.header.message_type == MessageType.error:
            return 'error ' + reply.header.fields[HeaderFields.error_name]
        return reply.body
    session = call('/org/freedesktop/secrets', 'org.freedesktop.Secret.Service', 'OpenSession', 'sv', ('plain', ('s', '')))[1]
    item = sys.argv[1]
    got = call(item, 'org.freedesktop.Secret.Item', 'GetSecret', 'o', (session,))
    print('GetSecret:', got if isinstance(got, str) else bytes(got[0][2]).decode())
    secrets = call('/org/freedesktop/secrets', 'org.freedesktop.Secret.Service', 'GetSecrets', 'aoo', ([item], session))[0]
    print('GetSecrets:', sorted(secrets.keys()))
    items = call('/org/freedesktop/secrets/collection/login', 'org.freedesktop.DBus.Properties', 'Get', 'ss',
                 ('org.freedesktop.Secret.Collection', 'Items'))[0][1]
    print('Items:', sorted(items))
    """

    /// The item paths of what secret-tool's `search --all` printed: a `[/ID]` line per item, the
    /// item's id in the login collection.
    static func paths(_ result: ClientResult) -> [String] {
        result.stdout.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("[/") && line.hasSuffix("]") else { return nil }
            return "/org/freedesktop/secrets/collection/login" + line.dropFirst().dropLast()
        }
    }

    @Test func anAppSeesOnlyItsOwnItemsAndNoOtherSeesThem() throws {
        let sandbox = try DaemonSandbox()
        let stored = try sandbox.secretTool(app: Self.appA, ["store", "--label=A's password"] + Self.key, stdin: "secret-of-A")
        try #require(stored.status == 0, "\(stored)\n\(sandbox.log)")

        // A finds its own.
        let own = try sandbox.secretTool(app: Self.appA, ["lookup"] + Self.key)
        #expect(own.status == 0 && own.stdout == "secret-of-A", "\(own)")
        let found = try sandbox.secretTool(app: Self.appA, ["search", "--all"] + Self.key)
        let paths = Self.paths(found)
        try #require(paths.count == 1, "\(found)")
        let pathOfA = paths[0]

        // B, another app, gets nothing: not by lookup, not by search, not by the path itself.
        let lookupByB = try sandbox.secretTool(app: Self.appB, ["lookup"] + Self.key)
        #expect(lookupByB.status != 0 && lookupByB.stdout.isEmpty, "\(lookupByB)")
        let searchByB = try sandbox.secretTool(app: Self.appB, ["search", "--all"] + Self.key)
        #expect(Self.paths(searchByB).isEmpty && !searchByB.stdout.contains("secret-of-A"), "\(searchByB)")
        // The probe itself, as A: it reads the secret by its path.
        let probeByA = try sandbox.sandboxed(info: DaemonSandbox.flatpakInfo(Self.appA), "/usr/bin/python3", ["-c", Self.probe, pathOfA])
        #expect(probeByA.stdout.contains("GetSecret: secret-of-A") && probeByA.stdout.contains("GetSecrets: ['\(pathOfA)']")
                && probeByA.stdout.contains("Items: ['\(pathOfA)']"), "\(pathOfA)\n\(probeByA)")
        let probeByB = try sandbox.sandboxed(info: DaemonSandbox.flatpakInfo(Self.appB), "/usr/bin/python3", ["-c", Self.probe, pathOfA])
        #expect(probeByB.status == 0, "\(probeByB)")
        #expect(probeByB.stdout.contains("GetSecret: error org.freedesktop.Secret.Error.NoSuchObject"), "\(probeByB)")
        #expect(probeByB.stdout.contains("GetSecrets: []"), "\(probeByB)")
        #expect(probeByB.stdout.contains("Items: []"), "\(probeByB)")
        #expect(!probeByB.stdout.contains("secret-of-A"), "\(probeByB)")

        // A host program with no rule sees only the shared group: neither A's item...
        let lookupByHost = try sandbox.secretTool(["lookup"] + Self.key)
        #expect(lookupByHost.status != 0 && lookupByHost.stdout.isEmpty, "\(lookupByHost)")
        let probeByHost = try sandbox.run("/usr/bin/python3", ["-c", Self.probe, pathOfA])
        #expect(probeByHost.stdout.contains("GetSecret: error org.freedesktop.Secret.Error.NoSuchObject"), "\(probeByHost)")
        // ...nor does A see the host's, stored under the same attributes.
        #expect(try sandbox.secretTool(["store", "--label=host password"] + Self.key, stdin: "secret-of-host").status == 0)
        #expect(try sandbox.secretTool(["lookup"] + Self.key).stdout == "secret-of-host")
        let ownAgain = try sandbox.secretTool(app: Self.appA, ["search", "--all"] + Self.key)
        #expect(Self.paths(ownAgain) == [pathOfA] && !ownAgain.stdout.contains("secret-of-host"), "\(ownAgain)")
        #expect(try sandbox.secretTool(app: Self.appA, ["lookup"] + Self.key).stdout == "secret-of-A")

        // Where the item really is: in A's group of the keychain file, which keychainctl (an
        // administration tool that sees every group) finds when narrowed to that group.
        let inGroupOfA = try sandbox.keychainctl(["find-generic-password", "--access-group", "flatpak." + Self.appA,
                                                  "-s", "demo", "-a", "ann", "-w"])
        #expect(inGroupOfA.status == 0 && inGroupOfA.stdout == "secret-of-A\n", "\(inGroupOfA)")
        let inSharedGroup = try sandbox.keychainctl(["find-generic-password", "--access-group", "swift-keychain.shared",
                                                     "-s", "demo", "-a", "ann", "-w"])
        #expect(inSharedGroup.stdout == "secret-of-host\n", "\(inSharedGroup)")
    }

    /// A rule of the user's policy folder that lists the shared group lets the app see the
    /// host's items too; its own group stays its default, where its new items go.
    @Test func aRuleGivingTheSharedGroupLetsTheAppSeeHostItems() throws {
        let sandbox = try DaemonSandbox()
        #expect(try sandbox.secretTool(["store", "--label=host password"] + Self.key, stdin: "secret-of-host").status == 0)
        let before = try sandbox.secretTool(app: Self.appA, ["lookup"] + Self.key)
        #expect(before.status != 0 && before.stdout.isEmpty, "\(before)")

        try sandbox.writePolicyRule("a.conf", """
            # A sees its own items and the shared ones.
            flatpak = \(Self.appA)
            keychain-access-groups = flatpak.\(Self.appA), swift-keychain.shared
            """)
        let after = try sandbox.secretTool(app: Self.appA, ["lookup"] + Self.key)
        #expect(after.status == 0 && after.stdout == "secret-of-host", "\(after)\n\(sandbox.log)")
        // B has no rule: still nothing.
        #expect(try sandbox.secretTool(app: Self.appB, ["lookup"] + Self.key).stdout.isEmpty)
        // What A stores goes into its own group, not the shared one.
        #expect(try sandbox.secretTool(app: Self.appA, ["store", "--label=A", "service", "own", "username", "ann"], stdin: "mine").status == 0)
        let stored = try sandbox.keychainctl(["find-generic-password", "--access-group", "flatpak." + Self.appA, "-s", "own", "-w"])
        #expect(stored.stdout == "mine\n", "\(stored)")
    }

    /// `keychainctl grant-access` and `revoke-access` reach a keychaind that is running: each
    /// new connection is given what the folder holds then, with no restart.
    @Test func aGrantFromKeychainctlReachesARunningKeychaind() throws {
        let sandbox = try DaemonSandbox()
        #expect(try sandbox.secretTool(["store", "--label=host password"] + Self.key, stdin: "secret-of-host").status == 0)
        let before = try sandbox.secretTool(app: Self.appA, ["lookup"] + Self.key)
        #expect(before.status != 0 && before.stdout.isEmpty, "\(before)")

        let granted = try sandbox.keychainctl(["grant-access", "--flatpak", Self.appA,
                                               "--access-group", "flatpak.\(Self.appA)", "--access-group", "swift-keychain.shared"])
        #expect(granted.status == 0, "\(granted)")
        let daemon = sandbox.daemon?.processIdentifier
        let after = try sandbox.secretTool(app: Self.appA, ["lookup"] + Self.key)
        #expect(after.status == 0 && after.stdout == "secret-of-host", "\(after)\n\(sandbox.log)")
        #expect(try sandbox.secretTool(app: Self.appB, ["lookup"] + Self.key).stdout.isEmpty)

        let revoked = try sandbox.keychainctl(["revoke-access", "--flatpak", Self.appA])
        #expect(revoked.status == 0, "\(revoked)")
        let afterRevoke = try sandbox.secretTool(app: Self.appA, ["lookup"] + Self.key)
        #expect(afterRevoke.status != 0 && afterRevoke.stdout.isEmpty, "\(afterRevoke)")
        // The same keychaind all along.
        #expect(sandbox.daemon?.processIdentifier == daemon && sandbox.daemon?.isRunning == true)
    }

    /// A host program granted by its interpreter and script (with both digests, as grant-access
    /// computes them) gets the group; the same interpreter on another script does not.
    @Test func aGrantForAScriptReachesARunningKeychaind() throws {
        let sandbox = try DaemonSandbox()
        #expect(try sandbox.secretTool(app: Self.appA, ["store", "--label=A's password"] + Self.key, stdin: "secret-of-A").status == 0)
        let pathOfA = try #require(Self.paths(try sandbox.secretTool(app: Self.appA, ["search", "--all"] + Self.key)).first)
        let script = sandbox.home.appendingPathComponent("probe.py")
        let other = sandbox.home.appendingPathComponent("other.py")
        try Self.probe.write(to: script, atomically: true, encoding: .utf8)
        try (Self.probe + "# another script\n").write(to: other, atomically: true, encoding: .utf8)

        let granted = try sandbox.keychainctl(["grant-access", "--executable", "/usr/bin/python3", "--script", script.path,
                                               "--access-group", "flatpak.\(Self.appA)"])
        #expect(granted.status == 0, "\(granted)")
        let byScript = try sandbox.run("/usr/bin/python3", [script.path, pathOfA])
        #expect(byScript.stdout.contains("GetSecret: secret-of-A"), "\(byScript)\n\(sandbox.log)")
        let byOther = try sandbox.run("/usr/bin/python3", [other.path, pathOfA])
        #expect(byOther.stdout.contains("GetSecret: error org.freedesktop.Secret.Error.NoSuchObject"), "\(byOther)")
    }

    /// A caller in some sandbox whose `.flatpak-info` is not valid (here: no instance id) cannot
    /// be identified, and must not pass for a host program: it is refused.
    @Test func aCallerThatCannotBeIdentifiedIsRefused() throws {
        let sandbox = try DaemonSandbox()
        #expect(try sandbox.secretTool(["store", "--label=host password"] + Self.key, stdin: "secret-of-host").status == 0)
        let broken = "[Application]\nname=\(Self.appA)\n"
        let lookup = try sandbox.sandboxed(info: broken, "/usr/bin/secret-tool", ["lookup"] + Self.key)
        #expect(lookup.status != 0 && lookup.stdout.isEmpty, "\(lookup)")
        let asked = try sandbox.sandboxed(info: broken, "/usr/bin/dbus-send", [
            "--print-reply", "--dest=org.freedesktop.secrets", "/org/freedesktop/secrets",
            "org.freedesktop.Secret.Service.SearchItems", "dict:string:string:service,demo",
        ])
        #expect(asked.status != 0, "\(asked)")
        #expect(asked.stderr.contains("org.freedesktop.DBus.Error.AccessDenied"), "\(asked)")
        #expect(asked.stderr.contains("could not identify"), "\(asked)")
    }
}
