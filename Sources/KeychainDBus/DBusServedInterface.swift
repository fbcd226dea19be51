/// An interface as an object serves it beside others, its snapshot type hidden: what routing a
/// call and describing the object need of each ``DBusInterface``.
package protocol DBusServedInterface<Context>: Sendable {
    associatedtype Context
    var name: String { get }
    func method(named member: String) -> DBusMethod<Context>?
    func propertyValues(_ context: Context) -> Result<[(String, DBusValue)], DBusError>
    func propertyValue(_ name: String, _ context: Context) -> Result<DBusValue, DBusError>
    func propertyWriter(_ name: String) -> (@Sendable (Context, _ name: String, DBusValue) -> DBusReply)?
    /// What the interface offers, without the handlers: what introspection shows of it.
    var declaration: DBusInterfaceDeclaration { get }
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
