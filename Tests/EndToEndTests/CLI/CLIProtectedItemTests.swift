import Foundation
import KeychainServices
import KeychainStore
import KeychainTestSupport
import Testing

/// One item whose access control needs the user (`.userPresence`) among plain ones: listings
/// and searches leave it out instead of stopping at it (`kSecUseAuthenticationUISkip`), say how
/// many they left out, and every prompt that does appear names what asks, the item and the
/// keychain (docs/keychainctl.md, "Items that ask for authentication").
///
/// The runs "in a script" set `SWIFT_KEYCHAIN_AUTHENTICATOR=none`, which is what a process
/// without a terminal gets; it also keeps a run from the developer's own terminal from
/// prompting there.
@Suite struct CLIProtectedItemTests {
    static let keychainPassword = "Guard-Passw0rd"
    static let script = ["SWIFT_KEYCHAIN_AUTHENTICATOR": "none"]

    /// A default keychain with a password holding, in this order: "guarded", a generic password
    /// of account alice added by an application with `.userPresence`, then "alpha" and "beta",
    /// plain generic passwords of account alice added by keychainctl.
    static func protectedFirst() throws -> CLISandbox {
        let sandbox = try CLISandbox()
        let passwordSet = try sandbox.run(["set-keychain-password", "-p", keychainPassword])
        try #require(passwordSet.status == 0, "\(passwordSet)")
        let control = try #require(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, .userPresence, nil))
        let context = try CLIInteropTests.applicationContext(sandbox)
        let added = KeychainContext.withContext(context) {
            SecItemAdd([kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "guarded",
                        kSecAttrAccount as String: "alice", kSecAttrAccessControl as String: control,
                        kSecValueData as String: Data("guarded-secret".utf8)] as CFDictionary, nil)
        }
        try #require(added == errSecSuccess)
        try sandbox.addGeneric(account: "alice", service: "alpha", password: "alpha-secret")
        try sandbox.addGeneric(account: "alice", service: "beta", password: "beta-secret")
        return sandbox
    }

    static func services(_ listing: String) -> [String] {
        listing.split(separator: "\n").compactMap { line in
            let prefix = "    \"svce\"<blob>=\""
            guard line.hasPrefix(prefix) else { return nil }
            return String(line.dropFirst(prefix.count).dropLast())
        }
    }

    @Test("dump-keychain in a script lists the two plain items, says one item was skipped, and exits 0")
    func dumpSkips() throws {
        let sandbox = try Self.protectedFirst()
        let dump = try sandbox.run(["dump-keychain"], environment: Self.script)
        #expect(dump.status == 0, "\(dump)")
        #expect(Self.services(dump.stdout) == ["alpha", "beta"], "\(dump)")
        #expect(dump.stderr == "keychainctl: skipped 1 item that needs authentication (access control) in \"\(sandbox.defaultKeychain.path)\"; "
                + "dump-keychain -d asks for authentication at a terminal.\n", "\(dump)")
        let json = try sandbox.run(["dump-keychain", "--json"], environment: Self.script)
        #expect(json.status == 0 && json.stdout.components(separatedBy: "\"service\" :").count == 3, "\(json)")
        // -d asks for it, but no one can be asked here: the passwords of the others, and the same note.
        let data = try sandbox.run(["dump-keychain", "-d"], environment: Self.script)
        #expect(data.status == 0 && Self.services(data.stdout) == ["alpha", "beta"], "\(data)")
        #expect(data.stdout.contains("data:\n\"alpha-secret\"\n") && !data.stdout.contains("guarded-secret"), "\(data)")
        #expect(data.stderr.contains("skipped 1 item that needs authentication (access control)"), "\(data)")
    }

    @Test("find without -w, and delete, take the first match that needs no authentication, and say one was skipped")
    func findAndDeleteSkip() throws {
        let sandbox = try Self.protectedFirst()
        let found = try sandbox.run(["find-generic-password", "-a", "alice"], environment: Self.script)
        #expect(found.status == 0 && Self.services(found.stdout) == ["alpha"], "\(found)")
        #expect(found.stderr.contains("skipped 1 item that needs authentication (access control)"), "\(found)")
        let password = try sandbox.run(["find-generic-password", "-a", "alice", "-w"], environment: Self.script)
        #expect(password.status == 0 && password.stdout == "alpha-secret\n", "\(password)")
        let deleted = try sandbox.run(["delete-generic-password", "-a", "alice"], environment: Self.script)
        #expect(deleted.status == 0 && Self.services(deleted.stdout) == ["alpha"], "\(deleted)")
        #expect(Self.services(try sandbox.run(["dump-keychain"], environment: Self.script).stdout) == ["beta"])
    }

    @Test("When only the protected item matches, a script is told that it asks for authentication and no terminal is there")
    func onlyProtectedMatches() throws {
        let sandbox = try Self.protectedFirst()
        let result = try sandbox.run(["find-generic-password", "-s", "guarded", "-w"], environment: Self.script)
        #expect(result.status == 36 && result.stdout.isEmpty, "\(result)")
        #expect(result.stderr.contains("The only matching items ask for authentication"), "\(result)")
    }
}

/// The same keychain at a real terminal, through tmux.
@Suite(.enabled(if: TmuxTerminal.isAvailable, "tmux is not installed"))
struct CLIProtectedItemTerminalTests {
    /// The screen's lines joined, so that a prompt wider than the terminal reads whole.
    static func unwrapped(_ screen: String) -> String { screen.replacingOccurrences(of: "\n", with: "") }

    @Test("The prompt for a protected item names what asks, the item and the keychain; the right password reads it")
    func promptNamesTheItem() throws {
        let sandbox = try CLIProtectedItemTests.protectedFirst()
        let terminal = try TmuxTerminal.start(sandbox: sandbox, command: ["find-generic-password", "-s", "guarded", "-w"])
        defer { terminal.close() }
        let screen = Self.unwrapped(try terminal.waitFor("Password:"))
        #expect(screen.contains("keychainctl find-generic-password wants to read the generic password item with service \"guarded\" "
                                + "in keychain \"\(sandbox.defaultKeychain.path)\".Password:"), "\(screen)")
        terminal.type(CLIProtectedItemTests.keychainPassword)
        let done = try terminal.waitFor("EXIT=0")
        #expect(done.contains("\nguarded-secret\n"), "\(done)")
    }

    @Test("dump-keychain at a terminal does not prompt: it lists the others and says one was skipped")
    func dumpDoesNotPrompt() throws {
        let sandbox = try CLIProtectedItemTests.protectedFirst()
        let terminal = try TmuxTerminal.start(sandbox: sandbox, command: ["dump-keychain"])
        defer { terminal.close() }
        let screen = try terminal.waitFor(anyOf: ["EXIT=", "Password:"])
        #expect(screen.contains("EXIT=0") && !screen.contains("Password:"), "\(screen)")
        #expect(screen.contains("skipped 1 item that needs authentication (access control)"), "\(screen)")
    }

    @Test("dump-keychain -d at a terminal asks once, naming itself and the keychain, and then lists all three")
    func dumpWithDataAsksOnce() throws {
        let sandbox = try CLIProtectedItemTests.protectedFirst()
        let terminal = try TmuxTerminal.start(sandbox: sandbox, command: ["dump-keychain", "-d"])
        defer { terminal.close() }
        let screen = Self.unwrapped(try terminal.waitFor("Password:"))
        #expect(screen.contains("keychainctl dump-keychain -d wants to read the items that ask for authentication "
                                + "in keychain \"\(sandbox.defaultKeychain.path)\".Password:"), "\(screen)")
        terminal.type(CLIProtectedItemTests.keychainPassword)
        let done = try terminal.waitFor("EXIT=0")
        #expect(done.components(separatedBy: "Password:").count == 2, "\(done)")
        #expect(done.contains("\"guarded-secret\"") && done.contains("\"alpha-secret\"") && done.contains("\"beta-secret\""), "\(done)")
        #expect(!done.contains("skipped"), "\(done)")
    }
}
