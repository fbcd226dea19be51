import CDBus
package import Foundation

/// Whole messages in their wire format (dbus_message_marshal / dbus_message_demarshal), with no
/// connection: for the fuzz target, its seed corpus and the codec's tests.
package enum DBusWireFormat {
    /// What a demarshalled message holds.
    package struct Message: Sendable {
        package let type: Int32             // DBUS_MESSAGE_TYPE_*: 1 call, 2 return, 3 error, 4 signal
        package let path: String?
        package let interface: String?
        package let member: String?
        package let signature: String
        package let arguments: [DBusValue]
    }

    /// Parses one marshalled message and decodes its arguments. Throws for bytes libdbus
    /// refuses and for arguments the codec does not model (file descriptors).
    package static func demarshal(_ bytes: Data) throws -> Message {
        guard threadsReady else { throw DBusError.failed("dbus_threads_init_default failed") }
        guard bytes.count <= Int(Int32.max) else { throw DBusError.invalidArgs("too long") }
        let message = try bytes.withUnsafeBytes { buffer throws -> OpaquePointer in
            var error = CDBus.DBusError()
            dbus_error_init(&error)
            defer { dbus_error_free(&error) }
            let base = buffer.baseAddress?.assumingMemoryBound(to: CChar.self)
            guard let base, let message = dbus_message_demarshal(base, Int32(buffer.count), &error) else {
                throw DBusError(name: error.name.map { String(cString: $0) } ?? DBusError.invalidArgsName, message: "not a message")
            }
            return message
        }
        defer { dbus_message_unref(message) }
        let text = { (pointer: UnsafePointer<CChar>?) in pointer.map { String(cString: $0) } }
        return Message(type: dbus_message_get_type(message),
                       path: text(dbus_message_get_path(message)),
                       interface: text(dbus_message_get_interface(message)),
                       member: text(dbus_message_get_member(message)),
                       signature: text(dbus_message_get_signature(message)) ?? "",
                       arguments: try DBusCodec.decodeArguments(of: message))
    }

    /// A signal carrying `arguments`, marshalled (serial 1).
    package static func marshalSignal(path: String, interface: String, member: String, arguments: [DBusValue]) throws -> Data {
        guard DBusCodec.isValid(path, dbus_validate_path), DBusCodec.isValid(interface, dbus_validate_interface),
              DBusCodec.isValid(member, dbus_validate_member) else { throw DBusError.invalidArgs("invalid name") }
        guard let message = dbus_message_new_signal(path, interface, member) else { throw DBusError.failed("out of memory") }
        defer { dbus_message_unref(message) }
        try DBusCodec.encode(arguments, into: message)
        dbus_message_set_serial(message, 1)
        var pointer: UnsafeMutablePointer<CChar>?
        var length: Int32 = 0
        guard dbus_message_marshal(message, &pointer, &length) != 0, let pointer else { throw DBusError.failed("out of memory") }
        defer { dbus_free(pointer) }
        return Data(bytes: pointer, count: Int(length))
    }

    /// Encodes `arguments` into a fresh message and reads them back: the signature libdbus
    /// recorded, and the values decoded again.
    package static func roundTrip(_ arguments: [DBusValue]) throws -> (signature: String, arguments: [DBusValue]) {
        guard threadsReady else { throw DBusError.failed("dbus_threads_init_default failed") }
        guard let message = dbus_message_new(DBUS_MESSAGE_TYPE_SIGNAL) else { throw DBusError.failed("out of memory") }
        defer { dbus_message_unref(message) }
        try DBusCodec.encode(arguments, into: message)
        let signature = dbus_message_get_signature(message).map { String(cString: $0) } ?? ""
        return (signature, try DBusCodec.decodeArguments(of: message))
    }

    /// Whether `values`, as the arguments of one message, would be accepted by the encoder.
    package static func validate(_ values: [DBusValue]) throws {
        try DBusCodec.validate(values)
    }
}
