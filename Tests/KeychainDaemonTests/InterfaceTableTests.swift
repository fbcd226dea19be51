import Foundation
import FoundationXML
import KeychainDaemon
import KeychainDBus
import Testing

/// The interface table is what keychaind serves: for every kind of object, the introspection
/// data a running keychaind answers over the bus lists exactly the table's methods (with their
/// argument types), properties and signals, and every method refuses a call of another
/// signature with `InvalidArgs` before its handler sees it.
@Suite struct InterfaceTableTests {
    /// One path of each kind of object. Introspection and the signature check come before any
    /// lookup, so the objects need not exist (and a wrong call must not find out whether they do).
    static let objects: [(SecretObjectPath, String)] = [
        (.service, "/org/freedesktop/secrets"),
        (.collection(.name("login")), "/org/freedesktop/secrets/collection/login"),
        (.item(.name("login"), id: "g00"), "/org/freedesktop/secrets/collection/login/g00"),
        (.session("1"), "/org/freedesktop/secrets/session/1"),
        (.prompt("p1"), "/org/freedesktop/secrets/prompt/p1"),
    ]

    @Test func servedIntrospectionIsTheTable() throws {
        let sandbox = try DaemonSandbox()
        for (object, path) in Self.objects {
            #expect(SecretObjectPath(path) == object)
            let result = try sandbox.run("/usr/bin/dbus-send", ["--print-reply", "--dest=org.freedesktop.secrets", path,
                                                                "org.freedesktop.DBus.Introspectable.Introspect"])
            try #require(result.status == 0, "\(result)")
            let served = try Self.interfaces(inReply: result.stdout)
            let table = SecretService.interfaceDeclarations(at: object)
            #expect(served.map(\.name) == table.map(\.name), "\(path)")
            for declared in table {
                let shown = served.first { $0.name == declared.name }
                #expect(shown == Shown(declared), "\(path) \(declared.name)")
            }
        }
    }

    @Test func everyMethodRefusesAnotherSignature() throws {
        let sandbox = try DaemonSandbox()
        let client = try DBusConnection.session(address: sandbox.busAddress)
        var checked = 0
        for (object, path) in Self.objects {
            for interface in SecretService.interfaceDeclarations(at: object) {
                for method in interface.methods {
                    let expected = method.inputs.map(\.type).joined()
                    // No method takes a lone uint32; one without arguments is given a string,
                    // one with arguments none at all.
                    let wrong: [[DBusValue]] = [[.uint32(7)], expected.isEmpty ? [.string("x")] : []]
                    for arguments in wrong {
                        let name = HostileClientTests.errorName {
                            try client.call(destination: "org.freedesktop.secrets", path: path, interface: interface.name,
                                            member: method.name, arguments: arguments)
                        }
                        #expect(name == "org.freedesktop.DBus.Error.InvalidArgs", "\(path) \(interface.name).\(method.name) \(arguments)")
                        checked += 1
                    }
                }
            }
        }
        // Every method of every object was tried (the table is not empty, nor is any interface).
        #expect(checked == Self.objects.reduce(0) { total, entry in
            total + 2 * SecretService.interfaceDeclarations(at: entry.0).reduce(0) { $0 + $1.methods.count }
        })
        #expect(checked > 0)
        // Still serving.
        let alias = try client.call(destination: "org.freedesktop.secrets", path: "/org/freedesktop/secrets",
                                    interface: "org.freedesktop.Secret.Service", member: "ReadAlias", arguments: [.string("default")])
        #expect(alias == [.objectPath("/org/freedesktop/secrets/collection/login")])
    }

    /// What the introspection data says of one interface, compared without the order of its parts.
    struct Shown: Equatable {
        var name: String
        /// Method name to its argument types in and out.
        var methods: [String: [String]] = [:]
        /// Property name to type and access.
        var properties: [String: String] = [:]
        /// Signal name to its argument types.
        var signals: [String: [String]] = [:]

        init(name: String) { self.name = name }

        init(_ declaration: DBusInterfaceDeclaration) {
            name = declaration.name
            for method in declaration.methods {
                methods[method.name] = method.inputs.map { "in " + $0.type } + method.outputs.map { "out " + $0.type }
            }
            for property in declaration.properties { properties[property.name] = property.type + " " + property.access }
            for signal in declaration.signals { signals[signal.name] = signal.arguments.map(\.type) }
        }
    }

    /// The interfaces of the document `dbus-send --print-reply` printed (`string "<!DOCTYPE …"`).
    static func interfaces(inReply output: String) throws -> [Shown] {
        let start = try #require(output.firstIndex(of: "\""), "\(output)")
        let end = try #require(output.lastIndex(of: "\""), "\(output)")
        let document = try XMLDocument(xmlString: String(output[output.index(after: start)..<end]))
        var shown: [Shown] = []
        for interface in try document.nodes(forXPath: "/node/interface").compactMap({ $0 as? XMLElement }) {
            var entry = Shown(name: interface.attribute(forName: "name")?.stringValue ?? "")
            for method in interface.elements(forName: "method") {
                let arguments = method.elements(forName: "arg").map { argument in
                    (argument.attribute(forName: "direction")?.stringValue ?? "in") + " " + (argument.attribute(forName: "type")?.stringValue ?? "")
                }
                entry.methods[method.attribute(forName: "name")?.stringValue ?? ""] = arguments
            }
            for property in interface.elements(forName: "property") {
                entry.properties[property.attribute(forName: "name")?.stringValue ?? ""] =
                    (property.attribute(forName: "type")?.stringValue ?? "") + " " + (property.attribute(forName: "access")?.stringValue ?? "")
            }
            for signal in interface.elements(forName: "signal") {
                entry.signals[signal.attribute(forName: "name")?.stringValue ?? ""] =
                    signal.elements(forName: "arg").map { $0.attribute(forName: "type")?.stringValue ?? "" }
            }
            shown.append(entry)
        }
        return shown
    }
}
