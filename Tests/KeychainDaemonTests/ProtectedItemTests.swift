import Foundation
import KeychainDBus
import Testing

/// An item whose access control needs the user (`.userPresence`) is locked over D-Bus for every
/// operation, deleting it included: a client must pass the prompt `Unlock` starts first.
@Suite struct ProtectedItemTests {
    /// The attack: a client that never prompted calls `Item.Delete` on such an item. It gets
    /// `IsLocked`, and the item stays; after `Unlock` and the prompt, the same delete goes through.
    @Test func deletingAnItemThatNeedsTheUserNeedsThePrompt() throws {
        let (sandbox, terminal, file) = try LockedKeychainTests.protectedItemSandbox()
        defer {
            terminal.close()
            file.lock()
        }
        let found = try LockedKeychainTests.search(sandbox, service: "bank")
        guard let found, found.locked.count == 1, case .objectPath(let item)? = found.locked.first else {
            Issue.record("unexpected search answer \(String(describing: found))\n\(sandbox.log)")
            return
        }
        let delete = try sandbox.run("/usr/bin/dbus-send", ["--print-reply", "--dest=org.freedesktop.secrets", item,
                                                             "org.freedesktop.Secret.Item.Delete"])
        #expect(delete.status != 0, "\(delete)")
        #expect(delete.stderr.contains("org.freedesktop.Secret.Error.IsLocked"), "\(delete)")
        #expect(try LockedKeychainTests.search(sandbox, service: "bank")?.locked.count == 1, "the item is gone:\n\(sandbox.log)")

        // The way a client is meant to do it (secretstorage checks `Locked` first): unlock the
        // item, which prompts, then delete it on the same connection.
        let script = """
            import secretstorage
            bus = secretstorage.dbus_init()
            item = next(secretstorage.get_default_collection(bus).search_items({"service": "bank"}))
            print("dismissed" if item.unlock() else "unlocked")
            item.delete()
            print("deleted")
            """
        let client = Thread.runDetached { try? sandbox.python(script) }
        try terminal.waitFor("requires your password")
        terminal.type(LockedKeychainTests.password)
        let result = client.wait().flatMap { $0 }
        #expect(result?.stdout == "unlocked\ndeleted\n", "\(String(describing: result))\n\(sandbox.log)")
        #expect(try LockedKeychainTests.search(sandbox, service: "bank").map { $0.locked.count + $0.unlocked.count } == 0)
    }
}
