import Foundation
import Testing

/// keychainctl's keychain-level subcommands and keychain selection, run as a built binary.
@Suite struct CLIKeychainTests {
    @Test("The default keychain is created on first use, in XDG_DATA_HOME")
    func defaultCreatedOnFirstUse() throws {
        let sandbox = try CLISandbox()
        #expect(!FileManager.default.fileExists(atPath: sandbox.defaultKeychain.path))
        #expect(try sandbox.run(["find-generic-password", "-s", "anything"]).status == 44)
        #expect(FileManager.default.fileExists(atPath: sandbox.defaultKeychain.path))
    }

    @Test("SWIFT_KEYCHAIN_PATH chooses the keychain of every item subcommand")
    func environmentChoosesKeychain() throws {
        let sandbox = try CLISandbox()
        let path = sandbox.path("env/chosen.keychain-db")
        let environment = ["SWIFT_KEYCHAIN_PATH": path]
        #expect(try sandbox.run(["add-generic-password", "-a", "a", "-s", "s", "-w", "env"], environment: environment).status == 0)
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(!FileManager.default.fileExists(atPath: sandbox.defaultKeychain.path))
        #expect(try sandbox.run(["find-generic-password", "-s", "s", "-w"], environment: environment).stdout == "env\n")
        let listed = try sandbox.run(["default-keychain"], environment: environment)
        #expect(listed.stdout == "    \"\(path)\"\n")
    }

    @Test("--keychain and a positional keychain both name the keychain an item subcommand uses")
    func namedKeychain() throws {
        let sandbox = try CLISandbox()
        let path = sandbox.path("other.keychain-db")
        #expect(try sandbox.run(["create-keychain", path]).status == 0)
        #expect(try sandbox.run(["add-generic-password", "--keychain", path, "-a", "a", "-s", "s", "-w", "named"]).status == 0)
        #expect(try sandbox.run(["find-generic-password", "-s", "s", "-w", path]).stdout == "named\n")
        #expect(try sandbox.run(["find-generic-password", "-s", "s", "-w"]).status == 44)
        let block = try sandbox.run(["find-generic-password", "-s", "s", "--keychain", path])
        #expect(block.stdout.hasPrefix("keychain: \"\(path)\"\n"))
    }

    @Test("A named keychain that does not exist exits 50 (errSecNoSuchKeychain) and is not created")
    func missingNamedKeychain() throws {
        let sandbox = try CLISandbox()
        let path = sandbox.path("missing.keychain-db")
        let result = try sandbox.run(["find-generic-password", "-s", "s", "--keychain", path])
        #expect(result.status == 50)
        #expect(result.stderr.contains("errSecNoSuchKeychain"))
        #expect(result.stderr.contains("create-keychain"))
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("--keychain together with a positional keychain is bad usage")
    func keychainTwice() throws {
        let sandbox = try CLISandbox()
        #expect(try sandbox.run(["find-generic-password", "--keychain", "/a", "/b"]).status == 2)
    }

    @Test("Several positional keychains are searched in order")
    func searchList() throws {
        let sandbox = try CLISandbox()
        let first = sandbox.path("first.keychain-db")
        let second = sandbox.path("second.keychain-db")
        #expect(try sandbox.run(["create-keychain", first, second]).status == 0)
        #expect(try sandbox.run(["add-generic-password", "-a", "a", "-s", "s", "-w", "in-second", second]).status == 0)
        #expect(try sandbox.run(["find-generic-password", "-s", "s", "-w", first, second]).stdout == "in-second\n")
    }

    @Test("create-keychain makes a private file, and a second create of the same path exits 48")
    func createKeychain() throws {
        let sandbox = try CLISandbox()
        let path = sandbox.path("new.keychain-db")
        let created = try sandbox.run(["create-keychain", path])
        #expect(created.status == 0)
        #expect(created.stdout == "" && created.stderr == "")
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let again = try sandbox.run(["create-keychain", path])
        #expect(again.status == 48)
        #expect(again.stderr.contains("errSecDuplicateKeychain"))
    }

    @Test("create-keychain with a bare name creates it in the keychains folder with .keychain-db added")
    func createBareName() throws {
        let sandbox = try CLISandbox()
        #expect(try sandbox.run(["create-keychain", "work"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: sandbox.path("data/keychains/work.keychain-db")))
        #expect(try sandbox.run(["add-generic-password", "-a", "a", "-s", "s", "-w", "w", "work"]).status == 0)
        #expect(try sandbox.run(["find-generic-password", "-s", "s", "-w", "work.keychain"]).stdout == "w\n")
    }

    @Test("create-keychain without a keychain is bad usage")
    func createNeedsName() throws {
        let sandbox = try CLISandbox()
        #expect(try sandbox.run(["create-keychain"]).status == 2)
    }

    @Test("delete-keychain removes the file, and deleting it again exits 50")
    func deleteKeychain() throws {
        let sandbox = try CLISandbox()
        let path = sandbox.path("doomed.keychain-db")
        #expect(try sandbox.run(["create-keychain", path]).status == 0)
        #expect(try sandbox.run(["delete-keychain", path]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(try sandbox.run(["delete-keychain", path]).status == 50)
    }

    @Test("delete-keychain never deletes the default keychain by omission")
    func deleteNeedsName() throws {
        let sandbox = try CLISandbox()
        try sandbox.addGeneric(account: "a", service: "s", password: "kept")
        #expect(try sandbox.run(["delete-keychain"]).status == 2)
        #expect(FileManager.default.fileExists(atPath: sandbox.defaultKeychain.path))
    }

    @Test("list-keychains and default-keychain print the default keychain, quoted and indented, on standard output")
    func listAndDefault() throws {
        let sandbox = try CLISandbox()
        let expected = "    \"\(sandbox.defaultKeychain.path)\"\n"
        #expect(try sandbox.run(["list-keychains"]).stdout == expected)
        #expect(try sandbox.run(["default-keychain"]).stdout == expected)
        #expect(try sandbox.run(["list-keychains", "-d", "user"]).stdout == expected)
    }

    @Test("list-keychains names the keychains create-keychain made, on standard error, leaving the list itself as security prints it")
    func listNamesCreatedKeychains() throws {
        let sandbox = try CLISandbox()
        let expected = "    \"\(sandbox.defaultKeychain.path)\"\n"
        #expect(try sandbox.run(["list-keychains"]).stderr.isEmpty)
        #expect(try sandbox.run(["create-keychain", "-p", "pw", "work"]).status == 0)
        let listed = try sandbox.run(["list-keychains"])
        #expect(listed.stdout == expected)
        #expect(listed.stderr.contains("not in the search list"), "\(listed)")
        #expect(listed.stderr.contains("work.keychain-db\""), "\(listed)")
        #expect(!listed.stderr.contains(sandbox.defaultKeychain.path), "\(listed)")
    }

    @Test("Setting the search list or the default keychain exits 252 (errSecUnimplemented)")
    func settingListIsUnimplemented() throws {
        let sandbox = try CLISandbox()
        let list = try sandbox.run(["list-keychains", "-s", "/tmp/x"])
        #expect(list.status == 252)
        #expect(list.stderr.contains("errSecUnimplemented"))
        #expect(try sandbox.run(["default-keychain", "-s", "/tmp/x"]).status == 252)
    }

    @Test("A domain other than user is bad usage")
    func otherDomains() throws {
        let sandbox = try CLISandbox()
        #expect(try sandbox.run(["list-keychains", "-d", "system"]).status == 2)
        #expect(try sandbox.run(["default-keychain", "-d", "common"]).status == 2)
    }

    @Test("show-keychain-info prints security's settings line on standard error, and on standard output the file, the device key and the lock state")
    func showInfo() throws {
        let sandbox = try CLISandbox()
        let result = try sandbox.run(["show-keychain-info"])
        #expect(result.status == 0)
        #expect(result.stderr == "Keychain \"\(sandbox.defaultKeychain.path)\" no-timeout\n")
        #expect(result.stdout.contains("file:       \(sandbox.defaultKeychain.path)\n"))
        #expect(result.stdout.contains("device key: \(sandbox.path("config/swift-keychain/device-key"))\n"))
        #expect(result.stdout.contains("copy and back up the two together"))
        #expect(result.stdout.contains("state:      never locks (no password; set one with `keychainctl set-keychain-password`)"))
    }

    @Test("show-keychain-info names SWIFT_KEYCHAIN_DEVICE_KEY_FILE's device key when it is set")
    func showInfoDeviceKeyVariable() throws {
        let sandbox = try CLISandbox()
        let key = sandbox.path("elsewhere/key")
        let result = try sandbox.run(["show-keychain-info"], environment: ["SWIFT_KEYCHAIN_DEVICE_KEY_FILE": key])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("device key: \(key)\n"))
    }

    @Test("create-keychain work.keychain creates work.keychain-db, which work, work.keychain and work.keychain-db all find")
    func createDotKeychainName() throws {
        let sandbox = try CLISandbox()
        #expect(try sandbox.run(["create-keychain", "-p", "pw", "work.keychain"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: sandbox.path("data/keychains/work.keychain-db")))
        #expect(!FileManager.default.fileExists(atPath: sandbox.path("data/keychains/work.keychain")))
        for name in ["work", "work.keychain", "work.keychain-db"] {
            let info = try sandbox.run(["show-keychain-info", name])
            #expect(info.status == 0, "\(name): \(info)")
            #expect(info.stderr.contains("work.keychain-db\""), "\(name)")
        }
        #expect(try sandbox.run(["create-keychain", "work"]).status == 48)
    }

    @Test("create-keychain with a path ending in .keychain creates PATH-db there, and the path finds it")
    func createDotKeychainPath() throws {
        let sandbox = try CLISandbox()
        let path = sandbox.path("ci.keychain")
        #expect(try sandbox.run(["create-keychain", path]).status == 0)
        #expect(FileManager.default.fileExists(atPath: path + "-db"))
        #expect(try sandbox.run(["add-generic-password", "-a", "a", "-s", "s", "-w", "w", path]).status == 0)
        #expect(try sandbox.run(["find-generic-password", "-s", "s", "-w", path + "-db"]).stdout == "w\n")
    }

    @Test("dump-keychain of an empty keychain prints nothing and succeeds")
    func dumpEmpty() throws {
        let sandbox = try CLISandbox()
        let result = try sandbox.run(["dump-keychain"])
        #expect(result.status == 0)
        #expect(result.stdout == "")
    }

    @Test("dump-keychain prints every item's attributes but no password")
    func dumpAttributes() throws {
        let sandbox = try CLISandbox()
        try sandbox.addGeneric(account: "alice", service: "one", password: "pw-one")
        #expect(try sandbox.run(["add-internet-password", "-a", "bob", "-s", "two.example", "-w", "pw-two"]).status == 0)
        let result = try sandbox.run(["dump-keychain"])
        #expect(result.status == 0)
        #expect(result.stdout.components(separatedBy: "keychain: ").count == 3)
        #expect(result.stdout.contains("class: \"genp\""))
        #expect(result.stdout.contains("class: \"inet\""))
        #expect(!result.stdout.contains("pw-one"))
        #expect(!result.stdout.contains("pw-two"))
        #expect(!result.stdout.contains("data:"))
    }

    @Test("dump-keychain -d follows each item with its data")
    func dumpWithData() throws {
        let sandbox = try CLISandbox()
        try sandbox.addGeneric(account: "alice", service: "one", password: "pw-one")
        let result = try sandbox.run(["dump-keychain", "-d"])
        #expect(result.status == 0)
        #expect(result.stdout.hasSuffix("data:\n\"pw-one\"\n"))
    }

    @Test("dump-keychain of a named keychain that does not exist exits 50")
    func dumpMissing() throws {
        let sandbox = try CLISandbox()
        #expect(try sandbox.run(["dump-keychain", sandbox.path("none.keychain-db")]).status == 50)
    }
}
