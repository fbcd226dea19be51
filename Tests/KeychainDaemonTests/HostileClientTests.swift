import Foundation
import KeychainDBus
import Testing

/// What a careless or hostile D-Bus client can send keychaind: each call gets the spec's error
/// and changes nothing, and the daemon keeps serving.
@Suite struct HostileClientTests {
    static let root = "/org/freedesktop/secrets"
    static let service = "org.freedesktop.Secret.Service"
    static let collection = "org.freedesktop.Secret.Collection"
    static let item = "org.freedesktop.Secret.Item"
    static let properties = "org.freedesktop.DBus.Properties"
    static let login = root + "/collection/login"

    /// A client connection to the sandbox's bus.
    static func client(_ sandbox: DaemonSandbox) throws -> DBusConnection {
        try DBusConnection.session(address: sandbox.busAddress)
    }

    static func call(_ connection: DBusConnection, _ path: String, _ interface: String, _ member: String,
                     _ arguments: [DBusValue]) throws -> [DBusValue] {
        try connection.call(destination: "org.freedesktop.secrets", path: path, interface: interface, member: member, arguments: arguments)
    }

    /// The error name a call fails with (nil if it succeeds).
    static func errorName(_ body: () throws -> [DBusValue]) -> String? {
        do {
            _ = try body()
            return nil
        } catch let error as DBusError {
            return error.name
        } catch {
            return "\(error)"
        }
    }

    static func plainSession(_ connection: DBusConnection) throws -> String {
        let reply = try call(connection, root, service, "OpenSession", [.string("plain"), .variant(.string(""))])
        guard reply.count == 2, case .objectPath(let path) = reply[1] else { throw DBusError(name: "test", message: "no session") }
        return path
    }

    static func createItem(_ connection: DBusConnection, session: String, attributes: [String: String], secret: String,
                           path: String = login) throws -> [DBusValue] {
        let properties: DBusValue = .array(elementSignature: "{sv}", [
            .dictEntry(.string("org.freedesktop.Secret.Item.Label"), .variant(.string("label"))),
            .dictEntry(.string("org.freedesktop.Secret.Item.Attributes"),
                       .variant(.array(elementSignature: "{ss}", attributes.map { .dictEntry(.string($0.key), .string($0.value)) }))),
        ])
        let value: DBusValue = .structure([.objectPath(session), .bytes(Data()), .bytes(Data(secret.utf8)), .string("text/plain")])
        return try call(connection, path, collection, "CreateItem", [properties, value, .boolean(true)])
    }

    static func itemCount(_ connection: DBusConnection) throws -> Int {
        let reply = try call(connection, login, properties, "Get", [.string(collection), .string("Items")])
        guard case .variant(.array(_, let items))? = reply.first else { return -1 }
        return items.count
    }

    @Test func unsupportedAlgorithmIsNotSupportedAndBadKeysAreInvalidArgs() throws {
        let sandbox = try DaemonSandbox()
        let client = try Self.client(sandbox)
        #expect(Self.errorName { try Self.call(client, Self.root, Self.service, "OpenSession", [.string("rot13"), .variant(.string(""))]) }
                == "org.freedesktop.DBus.Error.NotSupported")
        let dh = "dh-ietf1024-sha256-aes128-cbc-pkcs7"
        let prime = Data(Array(repeating: 0xFF, count: 128))
        for key in [Data(), Data([0]), Data([1]), prime, Data(count: 1000)] {
            #expect(Self.errorName { try Self.call(client, Self.root, Self.service, "OpenSession", [.string(dh), .variant(.bytes(key))]) }
                    == "org.freedesktop.DBus.Error.InvalidArgs")
        }
        // The key as a string instead of bytes.
        #expect(Self.errorName { try Self.call(client, Self.root, Self.service, "OpenSession", [.string(dh), .variant(.string("x"))]) }
                == "org.freedesktop.DBus.Error.InvalidArgs")
    }

    @Test func wrongSignaturesUnknownPathsAndMethods() throws {
        let sandbox = try DaemonSandbox()
        let client = try Self.client(sandbox)
        #expect(Self.errorName { try Self.call(client, Self.root, Self.service, "SearchItems", [.string("not a dict")]) }
                == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(Self.errorName { try Self.call(client, Self.root, Self.service, "SearchItems", [.array(elementSignature: "{sv}", [])]) }
                == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(Self.errorName { try Self.call(client, Self.root, Self.service, "Explode", []) }
                == "org.freedesktop.DBus.Error.UnknownMethod")
        #expect(Self.errorName { try Self.call(client, Self.root + "/collection/nope", Self.collection, "SearchItems",
                                               [.array(elementSignature: "{ss}", [])]) }
                == "org.freedesktop.Secret.Error.NoSuchObject")
        #expect(Self.errorName { try Self.call(client, Self.login + "/g" + String(repeating: "0", count: 32), Self.properties, "GetAll",
                                               [.string(Self.item)]) }
                == "org.freedesktop.Secret.Error.NoSuchObject")
        #expect(Self.errorName { try Self.call(client, Self.login + "/../../x", Self.properties, "GetAll", [.string(Self.item)]) } != nil)
        #expect(Self.errorName { try Self.call(client, Self.root, Self.properties, "Get", [.string(Self.service), .string("Nope")]) }
                == "org.freedesktop.DBus.Error.UnknownProperty")
        // Still serving.
        #expect(try Self.itemCount(client) == 0)
    }

    @Test func aSessionBelongsToItsConnection() throws {
        let sandbox = try DaemonSandbox(nil)
        try sandbox.start(arguments: ["--log-level", "debug"])
        let alice = try Self.client(sandbox), mallory = try Self.client(sandbox)
        let session = try Self.plainSession(alice)
        let created = try Self.createItem(alice, session: session, attributes: ["service": "s", "username": "alice"], secret: "top")
        guard case .objectPath(let itemPath)? = created.first else { Issue.record("no item"); return }
        // Mallory names Alice's session: refused, for reading and for writing.
        #expect(Self.errorName { try Self.call(mallory, Self.root, Self.service, "GetSecrets", [.array(elementSignature: "o", [.objectPath(itemPath)]),
                                                                                               .objectPath(session)]) }
                == "org.freedesktop.Secret.Error.NoSession")
        #expect(Self.errorName { try Self.call(mallory, itemPath, Self.item, "GetSecret", [.objectPath(session)]) }
                == "org.freedesktop.Secret.Error.NoSession")
        #expect(Self.errorName { try Self.createItem(mallory, session: session, attributes: ["service": "s", "username": "alice"], secret: "evil") }
                == "org.freedesktop.Secret.Error.NoSession")
        // Alice's secret is unchanged.
        let reply = try Self.call(alice, itemPath, Self.item, "GetSecret", [.objectPath(session)])
        guard case .structure(let fields)? = reply.first, fields.count == 4, case .bytes(let value) = fields[2] else {
            Issue.record("unexpected reply \(reply)")
            return
        }
        #expect(value == Data("top".utf8))
        // When Alice leaves, her session goes with her.
        alice.close()
        var forgotten = false
        for _ in 0..<100 where !forgotten {
            usleep(20_000)
            forgotten = sandbox.log.contains("a client left")
        }
        #expect(forgotten, "the daemon kept the session of a client that left:\n\(sandbox.log)")
        #expect(sandbox.log.contains("sessions=1"))
    }

    @Test func hugeAttributeMapsAndSecretsAreRefusedWithoutEffect() throws {
        let sandbox = try DaemonSandbox()
        let client = try Self.client(sandbox)
        let session = try Self.plainSession(client)
        var huge: [String: String] = [:]
        for index in 0..<10_000 { huge["name\(index)"] = "value\(index)" }
        #expect(Self.errorName { try Self.createItem(client, session: session, attributes: huge, secret: "x") }
                == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(Self.errorName { try Self.call(client, Self.root, Self.service, "SearchItems",
                                               [.array(elementSignature: "{ss}", huge.map { .dictEntry(.string($0.key), .string($0.value)) })]) }
                == nil)
        #expect(try Self.itemCount(client) == 0)
    }

    @Test func aliasPathsAreObjectsAndSoAreTheirItems() throws {
        let sandbox = try DaemonSandbox()
        let client = try Self.client(sandbox)
        let session = try Self.plainSession(client)
        let alias = Self.root + "/aliases/default"
        let label = try Self.call(client, alias, Self.properties, "Get", [.string(Self.collection), .string("Label")])
        #expect(label.first == .variant(.string("Login")))
        let created = try Self.createItem(client, session: session, attributes: ["k": "v"], secret: "via-alias", path: alias)
        guard case .objectPath(let itemPath)? = created.first else { Issue.record("no item"); return }
        #expect(itemPath.hasPrefix(Self.login + "/"))
        let underAlias = alias + "/" + itemPath.split(separator: "/").last!
        let reply = try Self.call(client, underAlias, Self.item, "GetSecret", [.objectPath(session)])
        guard case .structure(let fields)? = reply.first, case .bytes(let value) = fields[2] else { Issue.record("\(reply)"); return }
        #expect(value == Data("via-alias".utf8))
        #expect(try Self.call(client, Self.root, Self.service, "ReadAlias", [.string("nonexistent")]) == [.objectPath("/")])
        #expect(try Self.call(client, Self.root, Self.service, "ReadAlias", [.string("default")]) == [.objectPath(Self.login)])
        #expect(try Self.call(client, Self.root, Self.service, "ReadAlias", [.string("session")]) == [.objectPath(Self.root + "/collection/session")])
    }

    @Test func itemSignalsReachListeners() throws {
        let sandbox = try DaemonSandbox()
        let listener = try Self.client(sandbox)
        let received = Received()
        try listener.subscribe(interface: Self.collection) { signal in received.append(signal.member) }
        let loop = Thread { listener.run() }
        loop.start()
        defer { listener.stop() }
        let client = try Self.client(sandbox)
        let session = try Self.plainSession(client)
        let created = try Self.createItem(client, session: session, attributes: ["k": "signal"], secret: "1")
        guard case .objectPath(let itemPath)? = created.first else { Issue.record("no item"); return }
        _ = try Self.createItem(client, session: session, attributes: ["k": "signal"], secret: "2")
        _ = try Self.call(client, itemPath, Self.item, "Delete", [])
        for _ in 0..<200 where received.members.count < 3 { usleep(10_000) }
        #expect(received.members == ["ItemCreated", "ItemChanged", "ItemDeleted"])
    }
}

/// Signal names collected on the listener's dispatch thread.
final class Received: @unchecked Sendable {
    // @unchecked: `names` is only touched while `lock` is held.
    private let lock = NSLock()
    private var names: [String] = []

    func append(_ name: String) { lock.withLock { names.append(name) } }
    var members: [String] { lock.withLock { names } }
}
