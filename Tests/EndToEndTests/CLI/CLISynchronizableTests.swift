import Foundation
import KeychainServices
import KeychainStore
import Testing

/// Synchronizable items (`kSecAttrSynchronizable`, what `keychainctl sync` carries) seen from
/// keychainctl: `--synchronizable` adds one, and find, dump and delete see them beside the
/// others, showing which is which (docs/sync.md, docs/keychainctl.md).
@Suite struct CLISynchronizableTests {
    /// The attribute line a listing shows for a synchronizable item, and for any other.
    static let synchronizableLine = "    \"sync\"<sint32>=0x00000001 \n"
    static let localLine = "    \"sync\"<sint32>=0x00000000 \n"

    /// Adds a generic password as an application does, with `kSecAttrSynchronizable` true.
    static func addFromApplication(_ sandbox: CLISandbox, service: String, account: String, password: String) throws {
        let context = try CLIInteropTests.applicationContext(sandbox)
        let status = KeychainContext.withContext(context) {
            SecItemAdd([kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
                        kSecAttrAccount as String: account, kSecAttrSynchronizable as String: true,
                        kSecValueData as String: Data(password.utf8)] as CFDictionary, nil)
        }
        try #require(status == errSecSuccess)
    }

    /// The synchronizable items of `service` an application finds (`kSecAttrSynchronizable` true).
    static func synchronizableSecrets(_ sandbox: CLISandbox, service: String) throws -> [String] {
        let context = try CLIInteropTests.applicationContext(sandbox)
        var result: CFTypeRef?
        let status = KeychainContext.withContext(context) {
            SecItemCopyMatching([kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
                                 kSecAttrSynchronizable as String: true, kSecMatchLimit as String: kSecMatchLimitAll,
                                 kSecReturnData as String: true] as CFDictionary, &result)
        }
        if status == errSecItemNotFound { return [] }
        try #require(status == errSecSuccess)
        return ((result as? [Data]) ?? []).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test("add --synchronizable stores an item an application finds with kSecAttrSynchronizable true; without it, a local one")
    func addSynchronizable() throws {
        let sandbox = try CLISandbox()
        try sandbox.addGeneric(account: "alice", service: "notes.example", password: "local")
        try sandbox.addGeneric(account: "alice", service: "notes.example", password: "shared", extra: ["--synchronizable"])
        #expect(try Self.synchronizableSecrets(sandbox, service: "notes.example") == ["shared"])
        // sync is part of the primary key: a second synchronizable add is a duplicate, and -U
        // with --synchronizable changes that item, not the local one.
        #expect(try sandbox.run(["add-generic-password", "-a", "alice", "-s", "notes.example", "-w", "again", "--synchronizable"]).status == 45)
        let updated = try sandbox.run(["add-generic-password", "-U", "-a", "alice", "-s", "notes.example", "-w", "shared2", "--synchronizable"])
        #expect(updated.status == 0, "\(updated)")
        #expect(try Self.synchronizableSecrets(sandbox, service: "notes.example") == ["shared2"])
        let listing = try sandbox.run(["dump-keychain", "-d"])
        #expect(listing.stdout.components(separatedBy: Self.localLine).count == 2, "\(listing)")
        #expect(listing.stdout.contains(Self.synchronizableLine + "    \"type\"<uint32>=<NULL>\ndata:\n\"shared2\"\n"), "\(listing)")
        let help = try sandbox.run(["help", "add-generic-password"])
        let words = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("--synchronizable") && words.contains("macOS `security` has no such option"), "\(help)")
    }

    @Test("find, dump and delete see a synchronizable item an application added, and show that it is one")
    func commandsSeeSynchronizable() throws {
        let sandbox = try CLISandbox()
        try sandbox.addGeneric(account: "seed", service: "seed", password: "seed")  // creates keychain and device key
        try Self.addFromApplication(sandbox, service: "synced.example", account: "bob", password: "from-the-group")

        let found = try sandbox.run(["find-generic-password", "-s", "synced.example", "-a", "bob", "-w"])
        #expect(found.status == 0 && found.stdout == "from-the-group\n", "\(found)")
        let shown = try sandbox.run(["find-generic-password", "-s", "synced.example"])
        #expect(shown.stdout.contains(Self.synchronizableLine), "\(shown)")
        let json = try sandbox.run(["find-generic-password", "-s", "synced.example", "--json"])
        #expect(json.stdout.contains("\"synchronizable\" : true"), "\(json)")

        let dump = try sandbox.run(["dump-keychain"])
        #expect(dump.status == 0 && dump.stdout.contains("\"svce\"<blob>=\"synced.example\"\n" + Self.synchronizableLine), "\(dump)")
        #expect(dump.stdout.contains("\"svce\"<blob>=\"seed\"\n" + Self.localLine), "\(dump)")
        let dumpJSON = try sandbox.run(["dump-keychain", "--json"])
        #expect(dumpJSON.stdout.components(separatedBy: "\"synchronizable\" : true").count == 2, "\(dumpJSON)")

        let deleted = try sandbox.run(["delete-generic-password", "-s", "synced.example", "-a", "bob"])
        #expect(deleted.status == 0 && deleted.stdout.contains(Self.synchronizableLine), "\(deleted)")
        #expect(try Self.synchronizableSecrets(sandbox, service: "synced.example").isEmpty)
    }
}
