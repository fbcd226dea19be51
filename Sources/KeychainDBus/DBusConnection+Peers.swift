// What the bus knows of a peer from the kernel: the credentials of the socket it connected with
// (SO_PEERCRED), taken by the bus when the peer connected. A peer cannot choose them, unlike
// anything it puts in a message.

extension DBusConnection {
    /// The bus's own name: the sender of the messages the bus itself sends.
    package static let busName = "org.freedesktop.DBus"

    /// The Unix user the peer `name` (a unique name such as `:1.42`, or a well-known one) connected
    /// as: the bus's `GetConnectionUnixUser`. A blocking call to the bus; it throws the bus's
    /// error when no such peer is connected.
    package func unixUser(of name: String) throws -> UInt32 {
        try askBus("GetConnectionUnixUser", about: name)
    }

    /// The process that connected as the peer `name`: the bus's `GetConnectionUnixProcessID`.
    /// A blocking call to the bus, like ``unixUser(of:)``.
    package func processID(of name: String) throws -> UInt32 {
        try askBus("GetConnectionUnixProcessID", about: name)
    }

    /// The unique name of the peer that owns the well-known `name` now (the bus's
    /// `GetNameOwner`), or nil when nobody does. A blocking call to the bus.
    package func owner(of name: String) throws -> String? {
        let reply: [DBusValue]
        do {
            reply = try call(destination: Self.busName, path: "/org/freedesktop/DBus", interface: Self.busName, member: "GetNameOwner",
                             arguments: [.string(name)])
        } catch let error as DBusError where error.name == Self.nameHasNoOwner {
            return nil
        }
        guard reply.count == 1, case .string(let owner) = reply[0] else {
            throw DBusError.failed("the bus answered GetNameOwner with something other than a name")
        }
        return owner
    }

    /// The bus's error for a name nobody owns.
    static let nameHasNoOwner = "org.freedesktop.DBus.Error.NameHasNoOwner"

    private func askBus(_ member: String, about name: String) throws -> UInt32 {
        let reply = try call(destination: Self.busName, path: "/org/freedesktop/DBus", interface: Self.busName, member: member,
                             arguments: [.string(name)])
        guard reply.count == 1, case .uint32(let value) = reply[0] else {
            throw DBusError.failed("the bus answered \(member) with something other than a number")
        }
        return value
    }
}
