import Foundation
import Testing

/// Two items with equal attribute sets, as the Secret Service specification allows: `CreateItem`
/// with `replace = false` adds a second item rather than overwriting the first, `SearchItems`
/// finds both, and `replace = true` replaces one of them. Driven by Python's secretstorage against
/// keychaind and against gnome-keyring, which implements the specification here.
@Suite struct EqualAttributeSetsTests {
    /// One set of each keychain shape: a generic password's service and username, a network
    /// password (an internet password), and a set the keychain keeps whole.
    static let shapes: [String: [String: String]] = [
        "generic": ["service": "svc.example.com", "username": "ann"],
        "network": ["xdg:schema": "org.gnome.keyring.NetworkPassword", "user": "bob", "server": "git.example.com", "protocol": "https"],
        "other": ["xdg:schema": "org.example.Note", "note": "groceries"],
    ]

    /// For each shape: creates two items of one set without `replace`, then a third with it, and
    /// prints what a client sees after each step, one JSON object per shape.
    static func createTwiceThenReplace(_ sandbox: DaemonSandbox) throws -> [String: [String: String]] {
        let shapes = String(decoding: try JSONSerialization.data(withJSONObject: shapes, options: [.sortedKeys]), as: UTF8.self)
        let result = try sandbox.python("""
        import json, secretstorage
        collection = secretstorage.get_default_collection(secretstorage.dbus_init())
        if collection.is_locked():
            collection.unlock()
        def secrets(items):
            return ",".join(sorted(item.get_secret().decode() for item in items))
        report = {}
        for name, attributes in sorted(json.loads('''\(shapes)''').items()):
            first = collection.create_item(name + " 1", attributes, b"first", replace=False)
            second = collection.create_item(name + " 2", attributes, b"second", replace=False)
            found = list(collection.search_items(attributes))
            # Read now: an Item reads its secret from the service each time.
            seen = {
                "distinct paths": str(first.item_path != second.item_path),
                "secrets of both": first.get_secret().decode() + "," + second.get_secret().decode(),
                "found": str(sorted(item.item_path for item in found) == sorted([first.item_path, second.item_path])),
                "found secrets": secrets(found),
            }
            third = collection.create_item(name + " 3", attributes, b"third", replace=True)
            after = list(collection.search_items(attributes))
            seen["replaced one of them"] = str(third.item_path in (first.item_path, second.item_path))
            seen["replaced the first"] = str(third.item_path == first.item_path)
            seen["after replace"] = secrets(after)
            seen["count after replace"] = str(len(after))
            report[name] = seen
        print(json.dumps(report, sort_keys=True))
        """)
        try #require(result.status == 0, "\(result)\n\(sandbox.log)")
        let decoded = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: [String: String]]
        return try #require(decoded, "\(result)")
    }

    /// What every provider that follows the specification shows, whichever of the two equal
    /// items its `replace` picks.
    static func expectSpecification(_ report: [String: [String: String]], _ provider: String) {
        #expect(report.keys.sorted() == shapes.keys.sorted(), "\(provider): \(report)")
        for (shape, seen) in report {
            #expect(seen["distinct paths"] == "True", "\(provider), \(shape): \(seen)")
            #expect(seen["secrets of both"] == "first,second", "\(provider), \(shape): \(seen)")
            #expect(seen["found"] == "True", "\(provider), \(shape): \(seen)")
            #expect(seen["found secrets"] == "first,second", "\(provider), \(shape): \(seen)")
            #expect(seen["replaced one of them"] == "True", "\(provider), \(shape): \(seen)")
            #expect(seen["count after replace"] == "2", "\(provider), \(shape): \(seen)")
            #expect(["first,third", "second,third"].contains(seen["after replace"] ?? ""), "\(provider), \(shape): \(seen)")
        }
    }

    @Test func keychaindKeepsBothAndReplacesTheFirst() throws {
        let report = try Self.createTwiceThenReplace(DaemonSandbox(.keychaind))
        Self.expectSpecification(report, "keychaind")
        // Which one: the item created first (docs/secret-service.md).
        for (shape, seen) in report {
            #expect(seen["replaced the first"] == "True", "\(shape): \(seen)")
            #expect(seen["after replace"] == "second,third", "\(shape): \(seen)")
        }
    }

    @Test func gnomeKeyringDoesTheSame() throws {
        Self.expectSpecification(try Self.createTwiceThenReplace(DaemonSandbox(.gnomeKeyring)), "gnome-keyring")
    }

    /// The keychain's own callers: `SecItemAdd` (through keychainctl) of the key the first item
    /// holds is still `errSecDuplicateItem`, and the keychain lists both items.
    @Test func secItemCallersStillMeetTheirKeyAndSeeBoth() throws {
        let sandbox = try DaemonSandbox()
        let attributes = Self.shapes["generic"]!
        let created = try sandbox.python("""
        import secretstorage
        collection = secretstorage.get_default_collection(secretstorage.dbus_init())
        for secret in (b"first", b"second"):
            collection.create_item("mail", \(try Self.pythonDict(attributes)), secret, replace=False)
        """)
        try #require(created.status == 0, "\(created)\n\(sandbox.log)")
        let added = try sandbox.keychainctl(["add-generic-password", "-s", "svc.example.com", "-a", "ann", "-w", "third"])
        #expect(added.status == 45, "errSecDuplicateItem: \(added)")
        let dump = try sandbox.keychainctl(["dump-keychain", "-d"])
        #expect(dump.status == 0, "\(dump)")
        #expect(dump.stdout.components(separatedBy: "\"svce\"<blob>=\"svc.example.com\"").count - 1 == 2, "\(dump)")
        #expect(dump.stdout.contains("\"first\"") && dump.stdout.contains("\"second\"") && !dump.stdout.contains("\"third\""), "\(dump)")
    }

    /// A dictionary literal Python reads (JSON's object syntax is Python's for strings).
    static func pythonDict(_ attributes: [String: String]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: attributes, options: [.sortedKeys]), as: UTF8.self)
    }
}
