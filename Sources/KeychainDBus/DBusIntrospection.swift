/// An interface's methods, properties and signals as introspection shows them: names and types,
/// no handlers.
package struct DBusInterfaceDeclaration: Sendable, Equatable {
    package struct Method: Sendable, Equatable {
        package let name: String
        package let inputs: [DBusArgument]
        package let outputs: [DBusArgument]
    }

    package struct Property: Sendable, Equatable {
        package let name: String
        package let type: String
        /// `read` or `readwrite`.
        package let access: String
    }

    package let name: String
    package let methods: [Method]
    package let properties: [Property]
    package let signals: [DBusSignalDeclaration]
}

extension DBusInterface {
    package var declaration: DBusInterfaceDeclaration {
        DBusInterfaceDeclaration(name: name, methods: methods.map { .init(name: $0.name, inputs: $0.inputs, outputs: $0.outputs) },
                                 properties: properties.map { .init(name: $0.name, type: $0.type, access: $0.access) },
                                 signals: signals)
    }
}

/// The introspection data of an object: the `<node>` document `Introspect` answers, written
/// from the declarations of the interfaces it serves.
package enum DBusIntrospection {
    package static func document(_ interfaces: [DBusInterfaceDeclaration]) -> String {
        """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
        <node>
        \(interfaces.map(element).joined(separator: "\n"))
        </node>
        """
    }

    /// The `<interface>` element of one interface.
    static func element(_ interface: DBusInterfaceDeclaration) -> String {
        var lines = ["<interface name=\"\(interface.name)\">"]
        for method in interface.methods {
            let arguments = method.inputs.map { element($0, direction: "in") } + method.outputs.map { element($0, direction: "out") }
            lines.append(arguments.isEmpty ? "  <method name=\"\(method.name)\"/>"
                                           : "  <method name=\"\(method.name)\">\(arguments.joined())</method>")
        }
        for property in interface.properties {
            lines.append("  <property name=\"\(property.name)\" type=\"\(property.type)\" access=\"\(property.access)\"/>")
        }
        for signal in interface.signals {
            let arguments = signal.arguments.map { element($0, direction: nil) }
            lines.append(arguments.isEmpty ? "  <signal name=\"\(signal.name)\"/>"
                                           : "  <signal name=\"\(signal.name)\">\(arguments.joined())</signal>")
        }
        lines.append("</interface>")
        return lines.joined(separator: "\n")
    }

    private static func element(_ argument: DBusArgument, direction: String?) -> String {
        let name = argument.name.map { " name=\"\($0)\"" } ?? ""
        let direction = direction.map { " direction=\"\($0)\"" } ?? ""
        return "<arg\(name) type=\"\(argument.type)\"\(direction)/>"
    }
}
