/// An interface a served object offers, declared once: each method with its arguments and its
/// handler, each property with its type and how it is read (and written), each signal. The
/// signature check of an incoming call, its dispatch and the introspection data all come from
/// this one declaration, so they cannot disagree.
///
/// `Context` is what a handler is given for a call (the service, the call, the object);
/// `Snapshot` is what reading the properties loads once, for every getter to take its value from
/// (so that `GetAll` reads an item once, not once per property).
package struct DBusInterface<Context, Snapshot>: Sendable {
    package let name: String
    package let methods: [DBusMethod<Context>]
    package let properties: [DBusProperty<Context, Snapshot>]
    package let signals: [DBusSignalDeclaration]
    /// Loads what the property getters read, or refuses (the object is gone, or locked).
    let loadProperties: @Sendable (Context) -> Result<Snapshot, DBusError>

    package init(_ name: String, methods: [DBusMethod<Context>], properties: [DBusProperty<Context, Snapshot>] = [],
                 signals: [DBusSignalDeclaration] = [],
                 loadProperties: @escaping @Sendable (Context) -> Result<Snapshot, DBusError>) {
        self.name = name
        self.methods = methods
        self.properties = properties
        self.signals = signals
        self.loadProperties = loadProperties
    }

    package func method(named member: String) -> DBusMethod<Context>? {
        methods.first { $0.name == member }
    }

    /// Every property's value, in the order declared.
    package func propertyValues(_ context: Context) -> Result<[(String, DBusValue)], DBusError> {
        loadProperties(context).map { snapshot in properties.map { ($0.name, $0.read(snapshot)) } }
    }

    /// The value of the property `name`, or the refusal `UnknownProperty` when there is none.
    package func propertyValue(_ name: String, _ context: Context) -> Result<DBusValue, DBusError> {
        loadProperties(context).flatMap { snapshot in
            guard let property = properties.first(where: { $0.name == name }) else {
                return .failure(DBusError(name: DBusError.unknownPropertyName, message: "No property \(name) on \(self.name)"))
            }
            return .success(property.read(snapshot))
        }
    }

    /// The writer of the property `name`, if the interface declares it writable.
    package func propertyWriter(_ name: String) -> DBusProperty<Context, Snapshot>.Writer? {
        properties.first { $0.name == name }?.write
    }
}

/// One method: its name, its arguments in and out (names for the introspection data, types for
/// the signature), and what answers it. A call reaches `handler` only with arguments of exactly
/// ``inputSignature``, so the handler may index them without counting.
package struct DBusMethod<Context>: Sendable {
    package let name: String
    package let inputs: [DBusArgument]
    package let outputs: [DBusArgument]
    package let handler: @Sendable (Context) -> DBusReply

    package init(_ name: String, in inputs: [DBusArgument] = [], out outputs: [DBusArgument] = [],
                 handler: @escaping @Sendable (Context) -> DBusReply) {
        self.name = name
        self.inputs = inputs
        self.outputs = outputs
        self.handler = handler
    }

    /// The signature a call's arguments must have.
    package var inputSignature: String { inputs.map(\.type).joined() }
    package var outputSignature: String { outputs.map(\.type).joined() }
}

/// One property: its name and type, its getter over the interface's snapshot, and its setter if
/// it may be set (which is what makes it `readwrite` in the introspection data).
package struct DBusProperty<Context, Snapshot>: Sendable {
    package let name: String
    package let type: String
    let read: @Sendable (Snapshot) -> DBusValue
    let write: Writer?

    /// Sets the property to a value of its ``type``; it is given the property's name, so that one
    /// writer can serve several properties and say which one changed.
    package typealias Writer = @Sendable (Context, _ name: String, DBusValue) -> DBusReply

    package init(_ name: String, _ type: String, read: @escaping @Sendable (Snapshot) -> DBusValue, write: Writer? = nil) {
        self.name = name
        self.type = type
        self.read = read
        self.write = write
    }

    package var access: String { write == nil ? "read" : "readwrite" }
}

/// A signal an interface emits: its name and its arguments. Emitters name the declaration, so the
/// member and the signature they send are the ones introspection shows.
package struct DBusSignalDeclaration: Sendable, Equatable {
    package let name: String
    package let arguments: [DBusArgument]

    package init(_ name: String, _ arguments: [DBusArgument]) {
        self.name = name
        self.arguments = arguments
    }
}

/// An argument of a method or signal: its D-Bus type and, for the introspection data, its name.
package struct DBusArgument: Sendable, Equatable, ExpressibleByStringLiteral {
    package let name: String?
    package let type: String

    package init(_ name: String?, _ type: String) {
        self.name = name
        self.type = type
    }

    /// An unnamed argument of this type.
    package init(stringLiteral type: String) {
        self.init(nil, type)
    }
}


extension DBusInterface where Snapshot == Void {
    /// An interface without properties.
    package init(_ name: String, methods: [DBusMethod<Context>], signals: [DBusSignalDeclaration] = []) {
        self.init(name, methods: methods, properties: [], signals: signals) { _ in .success(()) }
    }
}
