import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// How keychaind starts, shares the bus name, and stops.
@Suite struct DaemonLifecycleTests {
    @Test func exitsCleanlyOnSIGTERM() throws {
        let sandbox = try DaemonSandbox()
        #expect(try sandbox.owner(of: "org.freedesktop.secrets") != nil)
        #expect(sandbox.stop() == 0, "\(sandbox.log)")
        #expect(sandbox.log.contains("stopped"))
    }

    @Test func refusesToStartWhileAnotherProviderServes() throws {
        let sandbox = try DaemonSandbox(.gnomeKeyring)
        let second = try sandbox.run(try BuiltProduct.url("keychaind").path, [])
        #expect(second.status == 1)
        #expect(second.stderr.contains("--replace"), "\(second)")
    }

    /// gnome-keyring does not let its name be taken over, so `--replace` queues for it and
    /// serves as soon as gnome-keyring is gone. While queued it says so, names the program it
    /// waits behind and how to hand the session over, and does not claim to serve; it says
    /// "serving" once the name is its own.
    @Test func replaceQueuesBehindGnomeKeyringAndServesWhenItLeaves() throws {
        let sandbox = try DaemonSandbox(.gnomeKeyring)
        let gnome = try sandbox.owner(of: "org.freedesktop.secrets")
        let gnomeProcess = try #require(sandbox.daemon?.processIdentifier)
        let log = sandbox.home.appendingPathComponent("replacing.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let ours = Process()
        ours.executableURL = try BuiltProduct.url("keychaind")
        ours.arguments = ["--replace"]
        ours.environment = sandbox.environment
        ours.standardError = try FileHandle(forWritingTo: log)
        try ours.run()
        defer { kill(ours.processIdentifier, SIGTERM); _ = ours.waitForExit() }
        let said = { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
        // Whichever it says first: that it queues, or (wrongly) that it serves.
        for _ in 0..<500 where !said().contains("queue") && !said().contains("serving") { usleep(20_000) }
        #expect(ours.isRunning, "keychaind --replace gave up instead of queueing")
        #expect(try sandbox.owner(of: "org.freedesktop.secrets") == gnome)
        let queued = said()
        #expect(queued.contains("queue"), "\(queued)")
        #expect(queued.contains("/usr/bin/gnome-keyring-daemon (process \(gnomeProcess))"), "\(queued)")
        #expect(queued.contains("systemctl --user mask --now gnome-keyring-daemon.service gnome-keyring-daemon.socket"), "\(queued)")
        #expect(queued.contains("/etc/xdg/autostart/gnome-keyring-secrets.desktop") && queued.contains("Hidden=true"), "\(queued)")
        #expect(!queued.contains("serving"), "\(queued)")
        // keychainctl tells who serves meanwhile.
        let whileQueued = try sandbox.keychainctl(["show-keychain-info"])
        #expect(whileQueued.status == 0, "\(whileQueued)")
        #expect(whileQueued.stdout.contains("secrets:    /usr/bin/gnome-keyring-daemon (process \(gnomeProcess)) serves org.freedesktop.secrets"),
                "\(whileQueued)")
        sandbox.stop()
        var owner = gnome
        for _ in 0..<250 where owner == gnome {
            usleep(20_000)
            owner = try sandbox.owner(of: "org.freedesktop.secrets")
        }
        #expect(owner != nil && owner != gnome)
        for _ in 0..<500 where !said().contains("serving") { usleep(20_000) }
        #expect(said().components(separatedBy: "serving").count - 1 == 1, "\(said())")
        // And it serves: a store and lookup go to the keychain.
        #expect(try sandbox.secretTool(["store", "--label", "x", "service", "s", "username", "u"], stdin: "v").status == 0)
        #expect(try sandbox.keychainctl(["find-generic-password", "-s", "s", "-a", "u", "-w"]).stdout == "v\n")
        let afterwards = try sandbox.keychainctl(["show-keychain-info"])
        #expect(afterwards.stdout.contains("secrets:    \(try BuiltProduct.url("keychaind").resolvingSymlinksInPath().path) (process \(ours.processIdentifier)) serves"),
                "\(afterwards)")
    }

    /// show-keychain-info says who serves the Secret Service on the session bus, that nobody
    /// does, or that there is no session bus, and succeeds in each case.
    @Test func showKeychainInfoSaysWhoServesTheSecretService() throws {
        let sandbox = try DaemonSandbox(nil)
        let nobody = try sandbox.keychainctl(["show-keychain-info"])
        #expect(nobody.status == 0, "\(nobody)")
        #expect(nobody.stdout.contains("secrets:    nobody serves org.freedesktop.secrets on the session bus"), "\(nobody)")
        let noBus = try sandbox.run(try BuiltProduct.url("keychainctl").path, ["show-keychain-info"],
                                    environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(sandbox.home.path)/no-bus-here"])
        #expect(noBus.status == 0, "\(noBus)")
        #expect(noBus.stdout.contains("secrets:    no session bus"), "\(noBus)")
        #expect(noBus.stdout.contains("state:"), "\(noBus)")
        try sandbox.start()
        let served = try sandbox.keychainctl(["show-keychain-info"])
        let daemon = try #require(sandbox.daemon)
        #expect(served.stdout.contains("secrets:    \(try BuiltProduct.url("keychaind").resolvingSymlinksInPath().path) (process \(daemon.processIdentifier)) serves"),
                "\(served)")
    }

    @Test func helpDescribesTheDaemon() throws {
        let sandbox = try DaemonSandbox(nil)
        let help = try sandbox.run(try BuiltProduct.url("keychaind").path, ["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("org.freedesktop.secrets"))
        #expect(help.stdout.contains("--replace"))
        // --sync/--no-sync reads as what it is: sync on unless --no-sync.
        let words = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("On unless --no-sync is given"), "\(help.stdout)")
    }

    @Test("keychaind --version prints the package's version and exits 0, as keychainctl --version does")
    func versionIsPrinted() throws {
        let sandbox = try DaemonSandbox(nil)
        let daemon = try sandbox.run(try BuiltProduct.url("keychaind").path, ["--version"])
        let cli = try sandbox.run(try BuiltProduct.url("keychainctl").path, ["--version"])
        #expect(daemon.status == 0, "\(daemon.stderr)")
        #expect(cli.status == 0)
        #expect(daemon.stdout == cli.stdout.replacingOccurrences(of: "keychainctl ", with: "keychaind "))
        #expect(daemon.stdout.hasPrefix("keychaind "))
    }
}

/// The activation file the project ships starts keychaind when a client first calls.
@Suite struct DaemonActivationTests {
    @Test func shippedActivationFileStartsKeychaindOnFirstUse() throws {
        let services = FileManager.default.temporaryDirectory.appendingPathComponent("keychaind-services-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: services, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: services) }
        let template = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("dist/dbus/org.freedesktop.secrets.service.in")
        let text = try String(contentsOf: template, encoding: .utf8)
            .replacingOccurrences(of: "@KEYCHAIND@", with: try BuiltProduct.url("keychaind").path)
        try text.write(to: services.appendingPathComponent("org.freedesktop.secrets.service"), atomically: true, encoding: .utf8)

        let sandbox = try DaemonSandbox(nil, serviceDirectory: services)
        #expect(try sandbox.owner(of: "org.freedesktop.secrets") == nil)
        let stored = try sandbox.secretTool(["store", "--label", "x", "service", "activated", "username", "u"], stdin: "v")
        #expect(stored.status == 0, "\(stored)")
        let owner = try #require(try sandbox.owner(of: "org.freedesktop.secrets"))
        // The activated daemon serves the sandbox's keychain, not the test runner's.
        #expect(try sandbox.keychainctl(["find-generic-password", "-s", "activated", "-a", "u", "-w"]).stdout == "v\n")
        let pid = try sandbox.run("/usr/bin/dbus-send", ["--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                                                         "org.freedesktop.DBus.GetConnectionUnixProcessID", "string:\(owner)"])
        if let number = pid.stdout.split(separator: " ").last.flatMap({ Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) {
            kill(number, SIGTERM)
        }
    }
}
