import Foundation
import KeychainServices
import KeychainStore
import KeychainTestSupport
import Testing

/// A served call on an item whose access control needs the user: the keeper asks through
/// keychaind's pinentry (pinentry-tty in a tmux pane here), naming the calling program as the
/// kernel shows it and the call's own reason, and every call asks again; a cancel fails the call
/// with errSecUserCanceled; a call that said no interaction is refused without one.
@Suite struct KeeperPromptTests {
    static let password = "keeper prompt password"

    @Test func aProtectedItemIsAskedForAtTheTerminalForEachCall() throws {
        try LockedKeychainTests.requirePrompter()
        let sandbox = try DaemonSandbox(nil)
        let terminal = try TmuxSession(socket: sandbox.home.appendingPathComponent("tmux.sock").path, session: "prompts", shellLine: "sleep 600")
        defer { terminal.close() }
        // Added with SecItemAdd and kSecAttrAccessControl (.userPresence), embedded, before keychaind starts.
        let deviceKey = try DeviceKey.load(from: sandbox.home.appendingPathComponent("config/swift-keychain/device-key"), create: true)
        let file = try KeychainFile.open(at: sandbox.home.appendingPathComponent("data/keychains/login.keychain-db"), deviceKey: deviceKey)
        defer { file.lock() }
        try file.setPassword(Self.password, currentPassword: nil)
        let access = try #require(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, .userPresence, nil))
        let added = KeychainContext.withContext(KeychainContext(file: file, identity: .unconfigured)) {
            SecItemAdd([kSecClass: kSecClassGenericPassword, kSecAttrService: "bank", kSecAttrAccount: "me",
                        kSecValueData: Data("1234".utf8), kSecAttrAccessControl: access] as CFDictionary, nil)
        }
        try #require(added == errSecSuccess)
        try sandbox.start(arguments: ["--keeper"], extraEnvironment: ["SWIFT_KEYCHAIN_PINENTRY": "/usr/bin/pinentry-tty",
                                                                      "SWIFT_KEYCHAIN_PINENTRY_TTY": try terminal.paneTerminal(), "TERM": "xterm"])
        let client = try BuiltProduct.url("keychain-served-client").resolvingSymlinksInPath().path

        // A call that says no interaction is refused without a prompt.
        #expect(try sandbox.servedClient(["find-without-ui", "bank", "me"]).stdout == "status -25308\n")

        let first = Thread.runDetached { try? sandbox.servedClient(["find", "bank", "me"]) }
        guard let prompt = try? terminal.waitFor("Password:") else {
            Issue.record("no prompt; the client said \(String(describing: first.wait().flatMap { $0 }))\n\(sandbox.log)")
            return
        }
        #expect(prompt.contains("The program \(client) wants to use an item"), "\(prompt)")
        terminal.type("wrong")
        try terminal.waitFor("Wrong password")
        terminal.type(Self.password)
        let found = first.wait().flatMap { $0 }
        #expect(found?.stdout == "found 1234\n", "\(String(describing: found))\n\(sandbox.log)")

        // Each call asks again; a cancel fails it.
        let second = Thread.runDetached { try? sandbox.servedClient(["find", "bank", "me"]) }
        // The third "Password:" on the screen: the first call showed two (the wrong try was asked again).
        try terminal.waitFor("Password:", occurrences: 3)
        terminal.press("C-d")
        let cancelled = second.wait().flatMap { $0 }
        #expect(cancelled?.stdout == "status -128\n", "\(String(describing: cancelled))\n\(sandbox.log)")
        #expect(!sandbox.log.contains(Self.password))
    }
}
