import Foundation
import Testing
@testable import KeychainDBus

/// The reply shapes written without a `DBusValue` tree (`ao ao`, `a{o(oayays)}`) reach a client
/// exactly as the same values written through the tree do, and a value libdbus would abort on
/// is refused as `Failed` like any reply that does not marshal.
@Suite struct ShapedReplyTests {
    static let secrets = [
        DBusPathSecret(path: "/org/freedesktop/secrets/collection/login/g00ff", session: "/org/freedesktop/secrets/session/1",
                       parameters: Data((0..<16).map { UInt8($0) }), value: Data([0, 255, 7]), contentType: "text/plain"),
        DBusPathSecret(path: "/a", session: "/", parameters: Data(), value: Data(), contentType: ""),
    ]

    static func tree(of secrets: [DBusPathSecret]) -> DBusValue {
        .array(elementSignature: "{o(oayays)}", secrets.map {
            .dictEntry(.objectPath($0.path), .structure([.objectPath($0.session), .bytes($0.parameters), .bytes($0.value), .string($0.contentType)]))
        })
    }

    static func paths(_ paths: [String]) -> DBusValue { .array(elementSignature: "o", paths.map { .objectPath($0) }) }

    /// Serves at /shaped: each member answers with one shaped reply.
    static func serve(on connection: DBusConnection) throws {
        try connection.serve(subtree: "/shaped") { call in
            switch call.member {
            case "Paths": return .objectPathLists(["/org/freedesktop/secrets/collection/login/g1", "/b"], [])
            case "LockedPaths": return .objectPathLists([], ["/c/d"])
            case "Secrets": return .secretsByPath(secrets)
            case "NoSecrets": return .secretsByPath([])
            case "BadPath": return .objectPathLists(["/ok"], ["/trailing/"])
            case "NULPath": return .objectPathLists(["/a\0b"], [])
            case "BadSession":
                return .secretsByPath([DBusPathSecret(path: "/a", session: "session", parameters: Data(), value: Data(), contentType: "")])
            case "NULContentType":
                return .secretsByPath([DBusPathSecret(path: "/a", session: "/s", parameters: Data(), value: Data(), contentType: "text\0plain")])
            default: return .error(name: "org.example.Error.Unknown", message: call.member)
            }
        }
    }

    @Test func shapedRepliesArriveAsTheirTrees() throws {
        try withPrivateBus { bus in
            let server = try bus.connect()
            try Self.serve(on: server)
            let running = Running(server)
            defer { running.stop() }
            let client = try bus.connect()
            func call(_ member: String) throws -> [DBusValue] {
                try client.call(destination: server.uniqueName, path: "/shaped", interface: testInterface, member: member, arguments: [])
            }
            #expect(try call("Paths") == [Self.paths(["/org/freedesktop/secrets/collection/login/g1", "/b"]), Self.paths([])])
            #expect(try call("LockedPaths") == [Self.paths([]), Self.paths(["/c/d"])])
            #expect(try call("Secrets") == [Self.tree(of: Self.secrets)])
            #expect(try call("NoSecrets") == [Self.tree(of: [])])
        }
    }

    @Test func invalidValuesAreRefusedNotSent() throws {
        try withPrivateBus { bus in
            let server = try bus.connect()
            try Self.serve(on: server)
            let running = Running(server)
            defer { running.stop() }
            let client = try bus.connect()
            for member in ["BadPath", "NULPath", "BadSession", "NULContentType"] {
                let error = try #require(throws: DBusError.self) {
                    try client.call(destination: server.uniqueName, path: "/shaped", interface: testInterface, member: member, arguments: [])
                }
                #expect(error.name == "org.freedesktop.DBus.Error.Failed", "\(member)")
            }
            // The connection still serves afterwards.
            #expect(try client.call(destination: server.uniqueName, path: "/shaped", interface: testInterface, member: "NoSecrets",
                                    arguments: []) == [Self.tree(of: [])])
        }
    }
}
