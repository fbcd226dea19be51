import Foundation
import Testing

/// `keychainctl import --from gnome-keyring` on keyring files the real programs write here:
/// gnome-keyring-daemon's own format, filled by secret-tool, Python keyring and git's libsecret
/// helper over a private bus, and libsecret's file backend (the v1 format oo7 also writes),
/// filled by the same tools. What Secret Service clients saw in gnome-keyring is what they see
/// in keychaind after the import, item for item.
@Suite struct GnomeKeyringImportTests {
    /// The password ``DaemonSandbox/startGnomeKeyring()`` unlocks gnome-keyring with.
    static let password = "sandbox-password"
    static let binarySecret = "bin\\001\\377x"  // printf's escapes: b i n 01 FF x
    static let pythonSecret = "py-sëcret"

    /// Every item of the default collection as a Secret Service client sees it: label,
    /// attributes, secret (base64), created and modified, sorted by label.
    static func listing(_ sandbox: DaemonSandbox) throws -> String {
        let result = try sandbox.python("""
        import base64, json, secretstorage
        collection = secretstorage.get_default_collection(secretstorage.dbus_init())
        items = [[item.get_label(), sorted(item.get_attributes().items()), base64.b64encode(item.get_secret()).decode(),
                  item.get_created(), item.get_modified()] for item in collection.get_all_items()]
        print(json.dumps(sorted(items), ensure_ascii=False))
        """)
        try #require(result.status == 0, "\(result)")
        return result.stdout
    }

    /// The items every test stores: what secret-tool stores (Python keyring's and git's items
    /// are added over D-Bus by the tests that have a provider).
    static func storeWithSecretTool(_ sandbox: DaemonSandbox, environment: [String: String] = [:]) throws {
        let steps: [[String]] = [
            ["--label", "Mail ✉ login", "service", "imap.example.com", "username", "ann"],
            ["--label", "Other", "app", "foo", "color", "blue"],
        ]
        let first = try sandbox.run("/usr/bin/secret-tool", ["store"] + steps[0], stdin: "hunter2", environment: environment)
        try #require(first.status == 0, "\(first)")
        // A secret that is not text: printf writes the bytes.
        let second = try sandbox.run("/bin/sh", ["-c", "printf '\(binarySecret)' | secret-tool store \"$@\"", "sh"] + steps[1],
                                     environment: environment)
        try #require(second.status == 0, "\(second)")
    }

    static func storeWithGit(_ sandbox: DaemonSandbox, environment: [String: String] = [:]) throws {
        let helper = try GitCredentialTests.buildHelper(sandbox)
        let approved = try sandbox.run("/usr/bin/git", ["-c", "credential.helper=\(helper)", "-c", "credential.useHttpPath=true",
                                                        "credential", "approve"],
                                       stdin: "protocol=https\nhost=git.example.com\npath=team/repo.git\nusername=bob\npassword=s3cret\n\n",
                                       environment: environment.merging(["GIT_TERMINAL_PROMPT": "0"]) { $1 })
        try #require(approved.status == 0, "\(approved)")
    }

    static func hex(_ text: String) -> String {
        text.utf8.map { String(format: "%02x", $0) }.joined()
    }

    @Test func gnomeKeyringsOwnFileArrivesWhole() throws {
        let sandbox = try DaemonSandbox(.gnomeKeyring)
        try Self.storeWithSecretTool(sandbox)
        try Self.storeWithGit(sandbox)
        let python = try PythonKeyringTests.keyring(sandbox, "kr.set_password('pypi.example.org', 'carol', '\(Self.pythonSecret)')")
        try #require(python.status == 0, "\(python)")
        // What a client sees from gnome-keyring at the next login: it reads the file back.
        sandbox.stop()
        try sandbox.startGnomeKeyring()
        let before = try Self.listing(sandbox)
        #expect(before.contains("imap.example.com") && before.contains("pypi.example.org") && before.contains("git.example.com"))
        sandbox.stop()
        let keyring = sandbox.home.appendingPathComponent("data/keyrings/login.keyring")
        let header = try Data(contentsOf: keyring).prefix(18)
        #expect(header == Data("GnomeKeyring\n\r\0\n".utf8) + Data([0, 0]), "gnome-keyring wrote another format")

        // The default file, the password on standard input, the default keychain.
        let imported = try sandbox.keychainctl(["import", "--from", "gnome-keyring"], stdin: Self.password + "\n")
        #expect(imported.status == 0, "\(imported)")
        #expect(imported.stdout == "4 items imported (4 added, 0 replaced).\n")
        for secret in ["hunter2", "s3cret", Self.pythonSecret] {
            #expect(!imported.stdout.contains(secret) && !imported.stderr.contains(secret))
        }

        // Python keyring's item is the generic password of its service and username; git's the
        // internet password of its server and user; the other set a generic password kept whole.
        let mail = try sandbox.keychainctl(["find-generic-password", "-s", "imap.example.com", "-a", "ann", "-w"])
        #expect(mail.stdout == "hunter2\n", "\(mail)")
        let pypi = try sandbox.keychainctl(["find-generic-password", "-s", "pypi.example.org", "-a", "carol", "-w"])
        #expect(pypi.stdout == Self.hex(Self.pythonSecret) + "\n", "\(pypi)")
        let git = try sandbox.keychainctl(["find-internet-password", "-s", "git.example.com", "-a", "bob", "-r", "htps",
                                           "-p", "team/repo.git", "-w"])
        #expect(git.stdout == "s3cret\n", "\(git)")
        let other = try sandbox.keychainctl(["find-generic-password", "-D", "Secret Service item", "-w"])
        #expect(other.stdout == "62696e01ff78\n", "\(other)")
        let dump = try sandbox.keychainctl(["dump-keychain"])
        #expect(dump.stdout.components(separatedBy: "class: \"genp\"").count - 1 == 3, "\(dump)")
        #expect(dump.stdout.components(separatedBy: "class: \"inet\"").count - 1 == 1, "\(dump)")
        #expect(dump.stdout.contains("\"svce\"<blob>=\"imap.example.com\""))
        #expect(dump.stdout.contains("\"srvr\"<blob>=\"git.example.com\""))
        #expect(dump.stdout.contains("\"ptcl\"<uint32>=\"htps\""))

        // Served by keychaind, the items are what gnome-keyring served: labels, attribute sets,
        // secrets and dates.
        try sandbox.start()
        let after = try Self.listing(sandbox)
        #expect(after == before)
        sandbox.stop()

        // Importing again changes nothing: the keychain's items are as new.
        let again = try sandbox.keychainctl(["import", "--from", "gnome-keyring"], stdin: Self.password + "\n")
        #expect(again.status == 0, "\(again)")
        #expect(again.stdout == "0 items imported (0 added, 0 replaced), 4 skipped (the keychain's item with the same key is as new or newer).\n")
    }

    @Test func v1FileOfLibsecretsFileBackend() throws {
        let sandbox = try DaemonSandbox(nil)
        let keyring = sandbox.home.appendingPathComponent("v1/login.keyring")
        let backend = ["SECRET_BACKEND": "file", "SECRET_FILE_TEST_PATH": keyring.path, "SECRET_FILE_TEST_PASSWORD": "pw-v1"]
        try Self.storeWithSecretTool(sandbox, environment: backend)
        try Self.storeWithGit(sandbox, environment: backend)
        let header = try Data(contentsOf: keyring).prefix(18)
        #expect(header == Data("GnomeKeyring\n\r\0\n".utf8) + Data([1, 0]), "libsecret wrote another format")

        // Into a keychain of its own (-k), the file named, the password read from standard input.
        #expect(try sandbox.keychainctl(["create-keychain", "moved"]).status == 0)
        let wrong = try sandbox.keychainctl(["import", "--from", "gnome-keyring", "-k", "moved", keyring.path], stdin: "pw-v2\n")
        #expect(wrong.status == 51, "\(wrong)")
        #expect(wrong.stderr.contains("The password does not open this keyring"), "\(wrong)")
        let imported = try sandbox.keychainctl(["import", "--from", "gnome-keyring", "-k", "moved", keyring.path], stdin: "pw-v1\n")
        #expect(imported.status == 0, "\(imported)")
        #expect(imported.stdout == "3 items imported (3 added, 0 replaced).\n")
        let mail = try sandbox.keychainctl(["find-generic-password", "-s", "imap.example.com", "-a", "ann", "-w", "moved"])
        #expect(mail.stdout == "hunter2\n", "\(mail)")
        let git = try sandbox.keychainctl(["find-internet-password", "-s", "git.example.com", "-a", "bob", "-w", "moved"])
        #expect(git.stdout == "s3cret\n", "\(git)")
        let other = try sandbox.keychainctl(["find-generic-password", "-D", "Secret Service item", "-w", "moved"])
        #expect(other.stdout == "62696e01ff78\n", "\(other)")
        // Nothing went to the default keychain.
        #expect(try sandbox.keychainctl(["find-generic-password", "-s", "imap.example.com"]).status == 44)

        // keychaind serving that keychain shows the sets libsecret stored.
        try sandbox.start(extraEnvironment: ["SWIFT_KEYCHAIN_PATH": sandbox.home.appendingPathComponent("data/keychains/moved.keychain-db").path])
        let listing = try Self.listing(sandbox)
        #expect(listing.contains("[\"app\", \"foo\"]"), "\(listing)")
        #expect(listing.contains("[\"object\", \"team/repo.git\"]"), "\(listing)")
        #expect(listing.contains("\"Mail ✉ login\""), "\(listing)")
    }

    @Test func wrongPasswordDamageAndMissingFilesImportNothing() throws {
        let sandbox = try DaemonSandbox(.gnomeKeyring)
        try Self.storeWithSecretTool(sandbox)
        sandbox.stop()
        let keyring = sandbox.home.appendingPathComponent("data/keyrings/login.keyring")
        let real = try Data(contentsOf: keyring)

        let wrong = try sandbox.keychainctl(["import", "--from", "gnome-keyring", keyring.path], stdin: "not-the-password\n")
        #expect(wrong.status == 51, "\(wrong)")  // errSecAuthFailed, as every refused password
        #expect(wrong.stderr.contains("The password does not open this keyring"), "\(wrong)")
        #expect(wrong.stderr.contains("[errSecAuthFailed -25293]"), "\(wrong)")

        let missing = try sandbox.keychainctl(["import", "--from", "gnome-keyring", sandbox.home.appendingPathComponent("none").path],
                                              stdin: Self.password + "\n")
        #expect(missing.status == 220, "\(missing)")  // errSecIO

        // Cut short, or a bit flipped in the encrypted block (its checksum then fails).
        var damaged: [Data] = [Data(), real.prefix(17), real.prefix(60), real.prefix(real.count / 2), real.dropLast()]
        for index in [real.count - 100, real.count - 17, real.count - 1] {
            var flipped = real
            flipped[index] ^= 0x10
            damaged.append(flipped)
        }
        for (number, data) in damaged.enumerated() {
            let url = sandbox.home.appendingPathComponent("damaged-\(number).keyring")
            try data.write(to: url)
            let result = try sandbox.keychainctl(["import", "--from", "gnome-keyring", url.path], stdin: Self.password + "\n")
            // A clean failure, errSecDecode (93) or errSecAuthFailed (51): never a crash.
            #expect([51, 93].contains(result.status), "damaged copy \(number): \(result)")
            #expect(result.stderr.contains("Nothing was imported"), "damaged copy \(number): \(result)")
        }
        #expect(try sandbox.keychainctl(["find-generic-password", "-s", "imap.example.com"]).status == 44)
        // A file of more than 64 MiB (sparse) is refused before it is read.
        let huge = sandbox.home.appendingPathComponent("huge.keyring")
        try real.write(to: huge)
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: 65 << 20)
        try handle.close()
        let tooLarge = try sandbox.keychainctl(["import", "--from", "gnome-keyring", huge.path], stdin: Self.password + "\n")
        #expect(tooLarge.status == 93, "\(tooLarge)")
        #expect(tooLarge.stderr.contains("too large to be a keyring"), "\(tooLarge)")
        let notAKeyring = try sandbox.keychainctl(["import", "--from", "gnome-keyring", sandbox.home.appendingPathComponent("bus.conf").path],
                                                  stdin: Self.password + "\n")
        #expect(notAKeyring.status == 93, "\(notAKeyring)")
        #expect(notAKeyring.stderr.contains("not a GNOME keyring"), "\(notAKeyring)")
    }
}
