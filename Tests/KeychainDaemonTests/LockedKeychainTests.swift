import Foundation
import KeychainDBus
import KeychainStore
import KeychainTestSupport
import Testing

/// A keychain with a password, locked: what D-Bus clients see, and the pinentry prompt that
/// unlocks it, typed at a real terminal (pinentry-tty in tmux).
@Suite struct LockedKeychainTests {
    static let password = "correct horse battery"

    /// A sandbox whose keychain holds one item and has a password, and is locked; keychaind's
    /// prompts go to a tmux pane.
    static func lockedSandbox() throws -> (DaemonSandbox, TmuxSession) {
        try requirePrompter()
        let sandbox = try DaemonSandbox(nil)
        let terminal = try TmuxSession(socket: sandbox.home.appendingPathComponent("tmux.sock").path, session: "prompts",
                                       shellLine: "sleep 600")
        try sandbox.start(extraEnvironment: ["SWIFT_KEYCHAIN_PINENTRY": "/usr/bin/pinentry-tty",
                                             "SWIFT_KEYCHAIN_PINENTRY_TTY": try terminal.paneTerminal(), "TERM": "xterm"])
        #expect(try sandbox.secretTool(["store", "--label", "Locked one", "service", "vault", "username", "me"], stdin: "inside").status == 0)
        let set = try sandbox.keychainctl(["set-keychain-password", "-p", password])
        try #require(set.status == 0, "\(set)")
        let lock = try sandbox.keychainctl(["lock-keychain"])
        try #require(lock.status == 0, "\(lock)")
        return (sandbox, terminal)
    }

    /// These tests need a real terminal and a real pinentry; without them they fail, never skip.
    static func requirePrompter() throws {
        try #require(TmuxSession.isAvailable, "tmux is missing: run scripts/install-system-packages.sh")
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/pinentry-tty"),
                     "pinentry-tty is missing: run scripts/install-system-packages.sh")
    }

    static func isLocked(_ sandbox: DaemonSandbox) throws -> Bool? {
        let client = try DBusConnection.session(address: sandbox.busAddress)
        defer { client.close() }
        let reply = try client.call(destination: "org.freedesktop.secrets", path: "/org/freedesktop/secrets/aliases/default",
                                    interface: "org.freedesktop.DBus.Properties", member: "Get",
                                    arguments: [.string("org.freedesktop.Secret.Collection"), .string("Locked")])
        guard case .variant(.boolean(let locked))? = reply.first else { return nil }
        return locked
    }

    @Test func lookupPromptsThroughPinentryAndUnlocksForEveryone() throws {
        let (sandbox, terminal) = try Self.lockedSandbox()
        defer {
            terminal.close()
            _ = try? sandbox.keychainctl(["lock-keychain"])
        }
        #expect(try Self.isLocked(sandbox) == true)
        // secret-tool finds the item locked, asks to unlock it, and the prompt appears on the terminal.
        let lookup = Thread.runDetached { try? sandbox.secretTool(["lookup", "service", "vault", "username", "me"]) }
        let prompt = try terminal.waitFor("Password:")
        // The prompt names the program that asked, as the kernel knows it.
        #expect(prompt.contains("The program /usr/bin/secret-tool wants to use the keychain"), "\(prompt)")
        terminal.type("wrong password")
        try terminal.waitFor("not the keychain's password")
        terminal.type(Self.password)
        let result = lookup.wait().flatMap { $0 }
        #expect(result?.status == 0, "\(String(describing: result))\n\(sandbox.log)")
        #expect(result?.stdout == "inside")
        // One unlock for every process: keychainctl sees it unlocked too.
        #expect(try Self.isLocked(sandbox) == false)
        #expect(try sandbox.keychainctl(["find-generic-password", "-s", "vault", "-a", "me", "-w"]).stdout == "inside\n")
        #expect(!sandbox.log.contains(Self.password))
    }

    /// A sandbox whose keychain has a password, is unlocked and holds one item (service `bank`,
    /// account `me`, secret `1234`) whose access control needs the user; keychaind's prompts go
    /// to a tmux pane. The caller closes the terminal and locks the file.
    static func protectedItemSandbox() throws -> (DaemonSandbox, TmuxSession, KeychainFile) {
        try requirePrompter()
        let sandbox = try DaemonSandbox(nil)
        let terminal = try TmuxSession(socket: sandbox.home.appendingPathComponent("tmux.sock").path, session: "prompts", shellLine: "sleep 600")
        // Written the way SecItemAdd writes an item with kSecAttrAccessControl (.userPresence).
        let deviceKey = try DeviceKey.load(from: sandbox.home.appendingPathComponent("config/swift-keychain/device-key"), create: true)
        let file = try KeychainFile.open(at: sandbox.home.appendingPathComponent("data/keychains/login.keychain-db"), deviceKey: deviceKey)
        try file.setPassword(password, currentPassword: nil)
        _ = try file.add(.genericPassword, attributes: [AttributeName.service: .string("bank"), AttributeName.account: .string("me")],
                         secret: Data("1234".utf8), identity: .unconfigured,
                         accessControl: ItemAccessControl(encoded: Data("presence".utf8), requiresAuthentication: true))
        try sandbox.start(extraEnvironment: ["SWIFT_KEYCHAIN_PINENTRY": "/usr/bin/pinentry-tty",
                                             "SWIFT_KEYCHAIN_PINENTRY_TTY": try terminal.paneTerminal(), "TERM": "xterm"])
        return (sandbox, terminal, file)
    }

    /// The `(unlocked, locked)` item paths a `SearchItems` for `service` answers.
    static func search(_ sandbox: DaemonSandbox, service: String) throws -> (unlocked: [DBusValue], locked: [DBusValue])? {
        let client = try DBusConnection.session(address: sandbox.busAddress)
        defer { client.close() }
        let search = try client.call(destination: "org.freedesktop.secrets", path: "/org/freedesktop/secrets", interface: "org.freedesktop.Secret.Service",
                                     member: "SearchItems", arguments: [.array(elementSignature: "{ss}", [.dictEntry(.string("service"), .string(service))])])
        guard search.count == 2, case .array(_, let unlocked) = search[0], case .array(_, let locked) = search[1] else { return nil }
        return (unlocked, locked)
    }

    /// An item whose access control needs the user is listed as locked even while the keychain
    /// is unlocked; unlocking it prompts, and opens it for that client only.
    @Test func anItemThatNeedsTheUserPromptsForEachClient() throws {
        let (sandbox, terminal, file) = try Self.protectedItemSandbox()
        defer {
            terminal.close()
            file.lock()
        }
        #expect(try Self.isLocked(sandbox) == false)
        for attempt in 1...2 {
            // Each secret-tool run is a new client: each is asked.
            let lookup = Thread.runDetached { try? sandbox.secretTool(["lookup", "service", "bank", "username", "me"]) }
            let prompt = try terminal.waitFor("requires your password", occurrences: attempt)
            #expect(prompt.contains("The program /usr/bin/secret-tool wants to use an item"), "\(prompt)")
            terminal.type(Self.password)
            let result = lookup.wait().flatMap { $0 }
            #expect(result?.status == 0, "\(String(describing: result))\n\(sandbox.log)")
            #expect(result?.stdout == "1234")
        }
        // Without a prompt, a client reads nothing of it.
        let found = try Self.search(sandbox, service: "bank")
        guard let found, case .objectPath(let item)? = found.locked.first else {
            Issue.record("unexpected reply \(String(describing: found))")
            return
        }
        #expect(found.unlocked.isEmpty)
        let client = try DBusConnection.session(address: sandbox.busAddress)
        defer { client.close() }
        let properties = try client.call(destination: "org.freedesktop.secrets", path: item, interface: "org.freedesktop.DBus.Properties",
                                         member: "GetAll", arguments: [.string("org.freedesktop.Secret.Item")])
        #expect("\(properties)".contains("Locked\"), .variant(.boolean(true)))") || "\(properties)".contains("boolean(true)"))
        #expect(!"\(properties)".contains("bank"))
    }

    @Test func cancellingThePromptUnlocksNothing() throws {
        let (sandbox, terminal) = try Self.lockedSandbox()
        defer { terminal.close() }
        let lookup = Thread.runDetached { try? sandbox.secretTool(["lookup", "service", "vault", "username", "me"]) }
        try terminal.waitFor("Password:")
        terminal.press("C-d")  // end of input at pinentry-tty's prompt: cancel
        let result = lookup.wait().flatMap { $0 }
        #expect(result?.status != 0)
        #expect(result?.stdout.isEmpty == true)
        #expect(try Self.isLocked(sandbox) == true)
    }

    /// A pinentry that greets and then vanishes: the prompt is dismissed, nothing unlocks, and
    /// the daemon (which was writing to it) keeps serving.
    @Test func aPinentryThatDiesDismissesThePromptAndTheDaemonLives() throws {
        let sandbox = try DaemonSandbox(nil)
        let fake = sandbox.home.appendingPathComponent("vanishing-pinentry")
        try "#!/bin/sh\necho OK\nexec 0<&- 1>&-\n".write(to: fake, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake.path)
        try sandbox.start(extraEnvironment: ["SWIFT_KEYCHAIN_PINENTRY": fake.path])
        #expect(try sandbox.secretTool(["store", "--label", "x", "service", "vault", "username", "me"], stdin: "inside").status == 0)
        #expect(try sandbox.keychainctl(["set-keychain-password", "-p", Self.password]).status == 0)
        #expect(try sandbox.keychainctl(["lock-keychain"]).status == 0)
        let lookup = try sandbox.secretTool(["lookup", "service", "vault", "username", "me"])
        #expect(lookup.status != 0)
        #expect(lookup.stdout.isEmpty)
        #expect(sandbox.daemon?.isRunning == true, "keychaind died:\n\(sandbox.log)")
        #expect(try Self.isLocked(sandbox) == true)
    }

    @Test func keychainctlUnlocksForTheDaemonAndLockOverDBusLocksForKeychainctl() throws {
        let (sandbox, terminal) = try Self.lockedSandbox()
        terminal.close()
        let unlock = try sandbox.keychainctl(["unlock-keychain", "-p", Self.password])
        #expect(unlock.status == 0, "\(unlock)")
        #expect(try Self.isLocked(sandbox) == false)
        #expect(try sandbox.secretTool(["lookup", "service", "vault", "username", "me"]).stdout == "inside")
        let client = try DBusConnection.session(address: sandbox.busAddress)
        defer { client.close() }
        let reply = try client.call(destination: "org.freedesktop.secrets", path: "/org/freedesktop/secrets", interface: "org.freedesktop.Secret.Service",
                                    member: "Lock", arguments: [.array(elementSignature: "o", [.objectPath("/org/freedesktop/secrets/collection/login")])])
        #expect(reply.first == .array(elementSignature: "o", [.objectPath("/org/freedesktop/secrets/collection/login")]))
        let status = try sandbox.keychainctl(["show-keychain-info", "--locked-status"])
        #expect(status.status == 36, "\(status)")
    }

    @Test func aLockedSearchListsItsCandidatesAsLocked() throws {
        let (sandbox, terminal) = try Self.lockedSandbox()
        terminal.close()
        let client = try DBusConnection.session(address: sandbox.busAddress)
        defer { client.close() }
        let search = try client.call(destination: "org.freedesktop.secrets", path: "/org/freedesktop/secrets", interface: "org.freedesktop.Secret.Service",
                                     member: "SearchItems", arguments: [.array(elementSignature: "{ss}", [.dictEntry(.string("service"), .string("vault"))])])
        guard search.count == 2, case .array(_, let unlocked) = search[0], case .array(_, let locked) = search[1] else {
            Issue.record("unexpected reply \(search)")
            return
        }
        #expect(unlocked.isEmpty)
        #expect(locked.count == 1)
        let other = try client.call(destination: "org.freedesktop.secrets", path: "/org/freedesktop/secrets", interface: "org.freedesktop.Secret.Service",
                                    member: "SearchItems", arguments: [.array(elementSignature: "{ss}", [.dictEntry(.string("service"), .string("elsewhere"))])])
        #expect(other == [.array(elementSignature: "o", []), .array(elementSignature: "o", [])])
    }
}

extension Thread {
    /// Runs `body` on a new thread; `wait()` returns its result.
    static func runDetached<T: Sendable>(_ body: @escaping @Sendable () -> T) -> Pending<T> {
        let pending = Pending<T>()
        Thread.detachNewThread { pending.finish(body()) }
        return pending
    }
}

/// A result another thread will deliver.
final class Pending<T: Sendable>: @unchecked Sendable {
    // @unchecked: `value` is written once under `condition`'s lock and read under it.
    private let condition = NSCondition()
    private var value: T?
    private var done = false

    func finish(_ result: T) {
        condition.withLock {
            value = result
            done = true
            condition.broadcast()
        }
    }

    func wait() -> T? {
        condition.withLock {
            while !done { condition.wait() }
            return value
        }
    }
}
