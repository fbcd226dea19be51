/// An interface as an object serves it beside others, its snapshot type hidden: what routing a
/// call and describing the object need of each ``DBusInterface``.
package protocol DBusServedInterface<Context>: Sendable {
    associatedtype Context
    var name: String { get }
    func method(named member: String) -> DBusMethod<Context>?
    func propertyValues(_ context: Context) -> Result<[(String, DBusValue)], DBusError>
    func propertyValue(_ name: String, _ context: Context) -> Result<DBusValue, DBusError>
    func propertyWriter(_ name: String) -> (@Sendable (Context, _ name: String, DBusValue) -> DBusReply)?
    /// The `<interface>` element of the introspection data.
    var introspection: String { get }
}

extension DBusInterface: DBusServedInterface {}

/// How a call finds its method among the interfaces of its object.
package enum DBusRouting {
    /// The method `call` names: in the interface it names, or, when it names none, in the first
    /// of `interfaces` that has a method of that name (the D-Bus specification leaves the choice
    /// to the service). A member no interface has is `UnknownMethod`; a method called with
    /// arguments of another signature is `InvalidArgs`, and its handler never sees the call.
    package static func method<Context>(for call: DBusMethodCall,
                                        among interfaces: [any DBusServedInterface<Context>]) -> Result<DBusMethod<Context>, DBusError> {
        let candidates = call.interface.map { name in interfaces.filter { $0.name == name } } ?? interfaces
        guard let method = candidates.lazy.compactMap({ $0.method(named: call.member) }).first else {
            return .failure(DBusError(name: DBusError.unknownMethodName,
                                      message: "No method \(call.member) on \(call.interface ?? "any interface") at \(call.path)"))
        }
        guard call.signature == method.inputSignature else {
            return .failure(DBusError(name: DBusError.invalidArgsName,
                                      message: "\(call.member) takes arguments of signature '\(method.inputSignature)', not '\(call.signature)'"))
        }
        return .success(method)
    }
}

/// The introspection data of an object: the `<node>` document `Introspect` answers, built from
/// the declarations of the interfaces it serves.
package enum DBusIntrospection {
    package static func document<Context>(_ interfaces: [any DBusServedInterface<Context>]) -> String {
        """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
        <node>
        \(interfaces.map(\.introspection).joined(separator: "\n"))
        </node>
        """
    }
}

extension DBusInterface {
    package var introspection: String {
        var lines = ["<interface name=\"\(name)\">"]
        for method in methods {
            let arguments = method.inputs.map { Self.element($0, direction: "in") } + method.outputs.map { Self.element($0, direction: "out") }
            lines.append(arguments.isEmpty ? "  <method name=\"\(method.name)\"/>"
                                           : "  <method name=\"\(method.name)\">\(arguments.joined())</method>")
        }
        for property in properties {
            lines.append("  <property name=\"\(property.name)\" type=\"\(property.type)\" access=\"\(property.access)\"/>")
        }
        for signal in signals {
            let arguments = signal.arguments.map { Self.element($0, direction: nil) }
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
