import CDBus
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// How a message that libdbus read reaches a served subtree, and how the subtree's answer goes
// back: the object-path callback, our own routing filter, and the replies built for each call.

/// The message function of every served subtree. The connection's filter answers these calls
/// first (``filterMessage``), so libdbus reaches this only if a call ever gets past it.
let handleMethodCall: DBusObjectPathMessageFunction = { connection, message, data in
    guard let connection, let message, let data,
          dbus_message_get_type(message) == DBUS_MESSAGE_TYPE_METHOD_CALL else {
        return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
    }
    return answerCall(message, on: connection, with: Unmanaged<Subtree>.fromOpaque(data).takeUnretainedValue())
}

/// Decodes a method call, runs the subtree's handler, sends its reply. Nothing about the
/// arguments is logged.
private func answerCall(_ message: OpaquePointer, on connection: OpaquePointer, with subtree: Subtree) -> DBusHandlerResult {
    let reply: DBusReply
    do {
        let arguments = try DBusCodec.decodeArguments(of: message)
        let call = DBusMethodCall(sender: string(dbus_message_get_sender(message)) ?? "",
                                  path: string(dbus_message_get_path(message)) ?? "/",
                                  interface: string(dbus_message_get_interface(message)),
                                  member: string(dbus_message_get_member(message)) ?? "",
                                  signature: string(dbus_message_get_signature(message)) ?? "",
                                  arguments: arguments)
        reply = subtree.handler(call)
    } catch {
        // Decoding throws only DBusError (a typed throw).
        reply = .error(name: error.name, message: error.message)
    }
    guard dbus_message_get_no_reply(message) == 0 else { return DBUS_HANDLER_RESULT_HANDLED }
    let answer = replyMessage(to: message, reply) ?? DBusError.failedName.withCString { name in
        "The service could not marshal its reply".withCString { dbus_message_new_error(message, name, $0) }
    }
    guard let answer else { return DBUS_HANDLER_RESULT_NEED_MEMORY }
    defer { dbus_message_unref(answer) }
    _ = dbus_connection_send(connection, answer, nil)
    return DBUS_HANDLER_RESULT_HANDLED
}

/// The reply message for `reply`, or nil when it cannot be built (a value that does not
/// marshal, an invalid error name, a message with NUL).
private func replyMessage(to call: OpaquePointer, _ reply: DBusReply) -> OpaquePointer? {
    switch reply {
    case .values(let values):
        guard let message = dbus_message_new_method_return(call) else { return nil }
        do {
            try DBusCodec.encode(values, into: message)
            return message
        } catch {
            dbus_message_unref(message)
            return nil
        }
    case .error(let name, let text):
        guard DBusCodec.isValid(name, dbus_validate_error_name), !text.utf8.contains(0) else { return nil }
        return name.withCString { n in text.withCString { dbus_message_new_error(call, n, $0) } }
    case .objectPathLists(let first, let second):
        return shapedReply(to: call, valid: DBusCodec.isValid(objectPaths: first) && DBusCodec.isValid(objectPaths: second)) {
            (iterator) throws(DBusError) in
            try DBusCodec.appendObjectPaths(first, to: iterator)
            try DBusCodec.appendObjectPaths(second, to: iterator)
        }
    case .secretsByPath(let entries):
        return shapedReply(to: call, valid: DBusCodec.isValid(entries)) { (iterator) throws(DBusError) in
            try DBusCodec.appendSecretsByPath(entries, to: iterator)
        }
    }
}

/// A method return whose arguments `append` writes, or nil when `valid` is false or writing fails.
private func shapedReply(to call: OpaquePointer, valid: Bool,
                         _ append: (UnsafeMutablePointer<DBusMessageIter>) throws(DBusError) -> Void) -> OpaquePointer? {
    guard valid, let message = dbus_message_new_method_return(call) else { return nil }
    do {
        try DBusCodec.withIterator { (iterator) throws(DBusError) in
            dbus_message_iter_init_append(message, iterator)
            try append(iterator)
        }
        return message
    } catch {
        dbus_message_unref(message)
        return nil
    }
}

/// The connection's filter: method calls to a served subtree (answered here, before libdbus's
/// object tree), NameOwnerChanged and NameLost from the bus, and subscribed signals. Consumes
/// no other message: calls to other paths go on to libdbus (its introspection of the parents
/// of a registered path, its UnknownObject/UnknownMethod errors).
let filterMessage: DBusHandleMessageFunction = { connection, message, data in
    guard let message, let data else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
    let type = dbus_message_get_type(message)
    if type == DBUS_MESSAGE_TYPE_METHOD_CALL {
        guard let connection, let path = dbus_message_get_path(message),
              let subtree = loopOf(data).subtree(serving: path) else {
            return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        }
        return answerCall(message, on: connection, with: subtree)
    }
    guard type == DBUS_MESSAGE_TYPE_SIGNAL,
          let interface = string(dbus_message_get_interface(message)),
          let member = string(dbus_message_get_member(message)) else {
        return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
    }
    let loop = loopOf(data)
    let (peers, lost, subscriptions) = loop.state.withLock { ($0.peerHandlers, $0.nameLostHandlers, $0.subscriptions) }
    let sender = string(dbus_message_get_sender(message)) ?? ""
    let path = string(dbus_message_get_path(message)) ?? "/"
    let arguments = { () -> [DBusValue]? in try? DBusCodec.decodeArguments(of: message) }
    if sender == "org.freedesktop.DBus", interface == "org.freedesktop.DBus" {
        if member == "NameOwnerChanged", !peers.isEmpty,
           let values = arguments(), values.count == 3,
           case .string(let name) = values[0], case .string(let newOwner) = values[2],
           name.hasPrefix(":"), newOwner.isEmpty {
            for handler in peers { handler(name) }
        } else if member == "NameLost", !lost.isEmpty,
                  let values = arguments(), values.count == 1, case .string(let name) = values[0] {
            for handler in lost { handler(name) }
        }
    }
    let matching = subscriptions.filter {
        $0.interface == interface && ($0.member == nil || $0.member == member) && ($0.path == nil || $0.path == path)
    }
    if !matching.isEmpty, let values = arguments() {
        let signal = DBusSignal(sender: sender, path: path, interface: interface, member: member,
                                signature: string(dbus_message_get_signature(message)) ?? "", arguments: values)
        for subscription in matching { subscription.handler(signal) }
    }
    return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
}
