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

extension ProtectedItemTests {
    /// The prompt names the client's executable as the kernel has it, whatever the client says
    /// about itself, and shows a hostile path without the line break and the reordering it hides:
    /// here Python run from a copy whose name tries to add a line of its own to the prompt.
    @Test func thePromptNamesTheClientsExecutableSanitized() throws {
        let (sandbox, terminal, file) = try LockedKeychainTests.protectedItemSandbox()
        defer {
            terminal.close()
            file.lock()
        }
        let folder = sandbox.home.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let client = folder.appendingPathComponent("client\nThe keychain's own updater\u{202E}exe.py")
        // The interpreter itself: /usr/bin/python3 is a symlink, which would be copied as one.
        let python = URL(fileURLWithPath: "/usr/bin/python3").resolvingSymlinksInPath()
        try FileManager.default.copyItem(at: python, to: client)
        // The client also renames its process (prctl PR_SET_NAME, what `ps` and /proc/PID/comm
        // show): a name it chose, which the prompt must not take.
        let unlock = """
            import ctypes, secretstorage
            ctypes.CDLL(None).prctl(15, b"gnome-shell", 0, 0, 0)
            bus = secretstorage.dbus_init()
            item = next(secretstorage.get_default_collection(bus).search_items({"service": "bank"}))
            print("dismissed" if item.unlock() else "unlocked")
            """
        let run = Thread.runDetached { try? sandbox.run(client.path, ["-c", unlock]) }
        let prompt = try terminal.waitFor("requires your password")
        terminal.type(LockedKeychainTests.password)
        let result = run.wait().flatMap { $0 }
        #expect(result?.stdout == "unlocked\n", "\(String(describing: result))\n\(sandbox.log)")
        let shown = "The program \(folder.path)/client\u{FFFD}The keychain's own updater\u{FFFD}exe.py wants to use an item"
        #expect(prompt.contains(shown), "\(prompt)")
        #expect(!prompt.contains("gnome-shell"))
    }
}
