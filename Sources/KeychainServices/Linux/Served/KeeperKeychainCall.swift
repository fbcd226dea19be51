#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Foundation
import KeychainSockets
#if canImport(Glibc)
import Glibc
#endif

/// A call on a served keychain itself rather than on its items: what `pam_keychain.so` hands
/// the system keeper at a login and at a password change (docs/pam.md, "With the system
/// keeper"), and what a program of the user may ask of its own keychain.
///
/// `user` names whose keychain; nil is the caller's own. The keeper runs a call on another
/// user's keychain only for root (`SO_PEERCRED` uid 0), and never for a sandboxed caller.
/// On the wire it is a ``KeeperCall`` whose query is a dictionary of the keys below.
package enum KeeperKeychainCall: Sendable, Equatable {
    /// Unlocks the keychain with its password; with `create`, a user without one gets it,
    /// created with that password.
    case unlock(user: UInt32?, password: String, create: Bool)
    /// Re-keys the keychain from its password `old` to `new`.
    case changePassword(user: UInt32?, old: String, new: String)

    /// What an unlock did, as the keeper's answer's result says it.
    package enum Outcome: String, Sendable {
        case unlocked, created, hasNoPassword = "no-password", passwordChanged = "password-changed"
    }

    package var user: UInt32? {
        switch self {
        case .unlock(let user, _, _), .changePassword(let user, _, _): return user
        }
    }

    /// Whose keychain this is for, once the keeper has checked that the caller may ask; nil
    /// when it may not: a sandboxed caller never, another user's keychain only for root.
    package func target(callerUserID: UInt32, callerIsSandboxed: Bool) -> UInt32? {
        guard !callerIsSandboxed else { return nil }
        let target = user ?? callerUserID
        return target == callerUserID || callerUserID == 0 ? target : nil
    }

    /// Sends the call to the keeper at `socketPath` on a connection of its own and returns the
    /// keeper's status and, on success, what it did. A keeper that cannot be reached is
    /// `errSecNotAvailable`.
    package func send(to socketPath: String) -> (status: OSStatus, outcome: Outcome?) {
        guard let connection = SocketIO.connect(to: socketPath) else { return (errSecNotAvailable, nil) }
        defer { close(connection) }
        guard SocketIO.writeAll(connection, SocketIO.lengthPrefixed(call.bytes)),
              case .message(let reply) = SocketIO.readMessage(connection, maximumLength: KeeperCall.maximumMessageLength),
              let answer = try? KeeperAnswer.read(reply) else {
            return (errSecNotAvailable, nil)
        }
        guard case .string(let word) = answer.result else { return (answer.status, nil) }
        return (answer.status, Outcome(rawValue: word))
    }

    /// The answer the keeper sends for a keychain call: its status and what it did.
    package static func answer(status: OSStatus, outcome: Outcome?) -> [UInt8] {
        KeeperAnswer(status: status, result: outcome.map { .string($0.rawValue) } ?? .null).bytes
    }

    /// What a message the keeper received is.
    package enum Message: Sendable {
        /// A SecItem call, or not a request at all: ``KeeperRequestHandler/answer(_:file:identity:authenticator:)`` answers it.
        case itemCall
        case keychainCall(KeeperKeychainCall)
        /// A keychain call that is not well formed: answered `errSecDecode`, and the connection closed.
        case malformed
    }

    package static func classify(_ message: [UInt8]) -> Message {
        guard case .success(let call) = KeeperCall.read(message) else { return .itemCall }
        do throws(KeeperCallRefusal) {
            guard let keychainCall = try KeeperKeychainCall(call) else { return .itemCall }
            return .keychainCall(keychainCall)
        } catch {
            return .malformed
        }
    }

    /// The dictionary's keys, named once.
    enum Key {
        static let user = "user", password = "password", create = "create", newPassword = "new-password"
    }

    var call: KeeperCall {
        var entries: [KeeperEntry] = []
        func put(_ key: String, _ value: KeeperValue) { entries.append(KeeperEntry(key: .string(key), value: value)) }
        let operation: KeeperCall.Operation
        switch self {
        case .unlock(let user, let password, let create):
            operation = .unlockKeychain
            if let user { put(Key.user, .integer(Int64(user))) }
            put(Key.password, .data(Data(password.utf8)))
            put(Key.create, .boolean(create))
        case .changePassword(let user, let old, let new):
            operation = .changeKeychainPassword
            if let user { put(Key.user, .integer(Int64(user))) }
            put(Key.password, .data(Data(old.utf8)))
            put(Key.newPassword, .data(Data(new.utf8)))
        }
        return KeeperCall(operation: operation, query: .dictionary(entries), changes: .null, wantsResult: true)
    }

    /// The keychain call a request is, nil for an item call; `.failure` for a keychain call
    /// that is malformed (a missing or mistyped key, a user id out of range, a password that is
    /// not UTF-8).
    init?(_ call: KeeperCall) throws(KeeperCallRefusal) {
        guard call.operation == .unlockKeychain || call.operation == .changeKeychainPassword else { return nil }
        guard case .dictionary(let entries) = call.query, call.changes == .null else { throw .malformed }
        var fields: [String: KeeperValue] = [:]
        for entry in entries {
            guard case .string(let key) = entry.key, fields[key] == nil else { throw .malformed }
            fields[key] = entry.value
        }
        var user: UInt32?
        switch fields.removeValue(forKey: Key.user) {
        case nil: user = nil
        case .integer(let value)?:
            guard let id = UInt32(exactly: value) else { throw .malformed }
            user = id
        default: throw .malformed
        }
        func text(_ key: String) throws(KeeperCallRefusal) -> String {
            guard case .data(let bytes)? = fields.removeValue(forKey: key),
                  let text = String(data: bytes, encoding: .utf8), !text.isEmpty else { throw .malformed }
            return text
        }
        let password = try text(Key.password)
        if call.operation == .unlockKeychain {
            guard case .boolean(let create)? = fields.removeValue(forKey: Key.create) else { throw .malformed }
            self = .unlock(user: user, password: password, create: create)
        } else {
            self = .changePassword(user: user, old: password, new: try text(Key.newPassword))
        }
        guard fields.isEmpty else { throw .malformed }
    }
}

#endif
