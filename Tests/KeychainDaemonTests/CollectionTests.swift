import Foundation
import KeychainDBus
import Testing

/// Collections are keychains: the keychains folder is served, and CreateCollection makes a new
/// keychain file there.
@Suite struct CollectionTests {
    static let root = "/org/freedesktop/secrets"

    static func collections(_ client: DBusConnection) throws -> [String] {
        let reply = try client.call(destination: "org.freedesktop.secrets", path: root, interface: "org.freedesktop.DBus.Properties",
                                    member: "Get", arguments: [.string("org.freedesktop.Secret.Service"), .string("Collections")])
        guard case .variant(.array(_, let paths))? = reply.first else { return [] }
        return paths.compactMap { if case .objectPath(let path) = $0 { return path } else { return nil } }
    }

    @Test func createCollectionMakesAKeychainFileKeychainctlFinds() throws {
        let sandbox = try DaemonSandbox()
        let client = try DBusConnection.session(address: sandbox.busAddress)
        defer { client.close() }
        let properties: DBusValue = .array(elementSignature: "{sv}", [.dictEntry(.string("org.freedesktop.Secret.Collection.Label"), .variant(.string("Work")))])
        let reply = try client.call(destination: "org.freedesktop.secrets", path: Self.root, interface: "org.freedesktop.Secret.Service",
                                    member: "CreateCollection", arguments: [properties, .string("")])
        #expect(reply == [.objectPath(Self.root + "/collection/work"), .objectPath("/")])
        #expect(try Self.collections(client).contains(Self.root + "/collection/work"))
        // Asking again returns the same collection; an item stored in it is in work.keychain-db.
        let again = try client.call(destination: "org.freedesktop.secrets", path: Self.root, interface: "org.freedesktop.Secret.Service",
                                    member: "CreateCollection", arguments: [properties, .string("")])
        #expect(again.first == .objectPath(Self.root + "/collection/work"))
        let info = try sandbox.keychainctl(["show-keychain-info", "work"])
        #expect(info.status == 0, "\(info)")
        #expect(info.stdout.contains("work.keychain-db"))
        let stored = try sandbox.secretTool(["store", "--collection", Self.root + "/collection/work", "--label", "w",
                                             "service", "intranet", "username", "me"], stdin: "in-work")
        #expect(stored.status == 0, "\(stored)")
        let found = try sandbox.keychainctl(["find-generic-password", "-s", "intranet", "-a", "me", "-w", "work"])
        #expect(found.stdout == "in-work\n", "\(found)")
        // Not in the login keychain.
        #expect(try sandbox.keychainctl(["find-generic-password", "-s", "intranet", "-a", "me", "-w"]).status != 0)
    }

    @Test func keychainsInTheFolderAreServedAsCollections() throws {
        let sandbox = try DaemonSandbox(nil)
        #expect(try sandbox.keychainctl(["create-keychain", "-p", "pw", "projects"]).status == 0)
        #expect(try sandbox.keychainctl(["add-generic-password", "-s", "build", "-a", "ci", "-w", "token", "projects"]).status == 0)
        try sandbox.start()
        let client = try DBusConnection.session(address: sandbox.busAddress)
        defer { client.close() }
        #expect(try Self.collections(client) == [Self.root + "/collection/login", Self.root + "/collection/session",
                                                 Self.root + "/collection/projects"])
        // A keychain with a password starts locked for the daemon as for every process.
        _ = try sandbox.keychainctl(["lock-keychain", "projects"])
        let locked = try client.call(destination: "org.freedesktop.secrets", path: Self.root + "/collection/projects",
                                     interface: "org.freedesktop.DBus.Properties", member: "Get",
                                     arguments: [.string("org.freedesktop.Secret.Collection"), .string("Locked")])
        #expect(locked.first == .variant(.boolean(true)))
    }
}
