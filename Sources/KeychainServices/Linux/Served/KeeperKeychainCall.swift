#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Foundation
import KeychainSockets
package import KeychainStore
#if canImport(Glibc)
import Glibc
#endif

/// A call on a served keychain itself rather than on its items: what `pam_keychain.so` hands
/// the system keeper at a login and at a password change (docs/pam.md, "With the system
/// keeper"), what a program of the user may ask of its own keychain, and the steps of moving a
/// keychain into a keeper and out again (`keychainctl move-keychain-to-keeper`).
///
/// `user` names whose keychain; nil is the caller's own. The keeper runs a call on another
/// user's keychain only for root (`SO_PEERCRED` uid 0), and never for a sandboxed caller; the
/// moves act on the caller's own keychain only.
/// On the wire it is a ``KeeperCall`` whose query is a dictionary of the keys below.
package enum KeeperKeychainCall: Sendable, Equatable {
    /// Unlocks the keychain with its password; with `create`, a user without one gets it,
    /// created with that password.
    case unlock(user: UInt32?, password: String, create: Bool)
    /// Re-keys the keychain from its password `old` to `new`.
    case changePassword(user: UInt32?, old: String, new: String)
    /// Takes in the caller's keychain, moved from its file. The caller must have none in the
    /// keeper yet.
    case adopt(MovedKeychain)
    /// Gives the caller its keychain, to move it out; the keeper keeps its copy until ``forget``.
    case release
    /// Deletes the caller's keychain from the keeper, once it has been moved out.
    case forget
    /// Locks the caller's keychain in the keeper, for every program it serves.
    case lock
    /// Says whether the caller's keychain is locked (``Outcome/locked``, ``Outcome/unlocked``
    /// or ``Outcome/hasNoPassword``), changing nothing.
    case status

    /// What the keeper did, as its answer says it.
    package enum Outcome: String, Sendable {
        case unlocked, created, hasNoPassword = "no-password", passwordChanged = "password-changed"
        case adopted, released, forgotten, locked
    }

    /// The keeper's answer to a keychain call: what it did and, for ``release``, the keychain.
    package struct Reply: Sendable, Equatable {
        package var outcome: Outcome
        package var moved: MovedKeychain?

        package init(_ outcome: Outcome, moved: MovedKeychain? = nil) {
            self.outcome = outcome
            self.moved = moved
        }
    }

    package var user: UInt32? {
        switch self {
        case .unlock(let user, _, _), .changePassword(let user, _, _): return user
        case .adopt, .release, .forget, .lock, .status: return nil
        }
    }

    private static let operations: [KeeperCall.Operation] = [.unlockKeychain, .changeKeychainPassword, .adoptKeychain, .releaseKeychain, .forgetKeychain, .lockKeychain, .keychainStatus]

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
    package func send(to socketPath: String) -> (status: OSStatus, reply: Reply?) {
        guard let connection = SocketIO.connect(to: socketPath) else { return (errSecNotAvailable, nil) }
        defer { close(connection) }
        guard SocketIO.writeAll(connection, SocketIO.lengthPrefixed(call.bytes)),
              case .message(let message) = SocketIO.readMessage(connection, maximumLength: KeeperCall.maximumMessageLength),
              let answer = try? KeeperAnswer.read(message) else {
            return (errSecNotAvailable, nil)
        }
        guard case .dictionary(let entries) = answer.result else { return (answer.status, nil) }
        var fields: [String: KeeperValue] = [:]
        for entry in entries { if case .string(let key) = entry.key { fields[key] = entry.value } }
        guard case .string(let word)? = fields[Key.outcome], let outcome = Outcome(rawValue: word) else { return (answer.status, nil) }
        var reply = Reply(outcome)
        if case .data(let image)? = fields[Key.keychain], case .data(let deviceKey)? = fields[Key.deviceKey] {
            var syncState: Data?
            if case .data(let bytes)? = fields[Key.syncState] { syncState = bytes }
            reply.moved = MovedKeychain(image: image, deviceKey: deviceKey, syncState: syncState)
        }
        return (answer.status, reply)
    }

    /// The answer the keeper sends for a keychain call: its status and what it did.
    package static func answer(status: OSStatus, reply: Reply?) -> [UInt8] {
        guard let reply else { return KeeperAnswer(status: status, result: .null).bytes }
        var entries = [KeeperEntry(key: .string(Key.outcome), value: .string(reply.outcome.rawValue))]
        if let moved = reply.moved { entries += Self.entries(moved) }
        return KeeperAnswer(status: status, result: .dictionary(entries)).bytes
    }

    /// What a message the keeper received is.
    package enum Message: Sendable, Equatable {
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
        static let keychain = "keychain", deviceKey = "device-key", syncState = "sync-state", outcome = "outcome"
    }

    /// A moved keychain as dictionary entries, in a call or an answer.
    private static func entries(_ moved: MovedKeychain) -> [KeeperEntry] {
        var entries = [KeeperEntry(key: .string(Key.keychain), value: .data(moved.image)),
                       KeeperEntry(key: .string(Key.deviceKey), value: .data(moved.deviceKey))]
        if let syncState = moved.syncState { entries.append(KeeperEntry(key: .string(Key.syncState), value: .data(syncState))) }
        return entries
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
        case .adopt(let moved):
            operation = .adoptKeychain
            entries += Self.entries(moved)
        case .release:
            operation = .releaseKeychain
        case .forget:
            operation = .forgetKeychain
        case .lock:
            operation = .lockKeychain
        case .status:
            operation = .keychainStatus
        }
        return KeeperCall(operation: operation, query: .dictionary(entries), changes: .null, wantsResult: true)
    }

    /// The keychain call a request is, nil for an item call; `.failure` for a keychain call
    /// that is malformed (a missing or mistyped key, a user id out of range, a password that is
    /// not UTF-8).
    init?(_ call: KeeperCall) throws(KeeperCallRefusal) {
        guard Self.operations.contains(call.operation) else { return nil }
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
        func bytes(_ key: String) throws(KeeperCallRefusal) -> Data {
            guard case .data(let bytes)? = fields.removeValue(forKey: key), !bytes.isEmpty else { throw .malformed }
            return bytes
        }
        switch call.operation {
        case .unlockKeychain:
            let password = try text(Key.password)
            guard case .boolean(let create)? = fields.removeValue(forKey: Key.create) else { throw .malformed }
            self = .unlock(user: user, password: password, create: create)
        case .changeKeychainPassword:
            self = .changePassword(user: user, old: try text(Key.password), new: try text(Key.newPassword))
        case .adoptKeychain:
            guard user == nil else { throw .malformed }
            let image = try bytes(Key.keychain), deviceKey = try bytes(Key.deviceKey)
            let syncState = fields[Key.syncState] == nil ? nil : try bytes(Key.syncState)
            self = .adopt(MovedKeychain(image: image, deviceKey: deviceKey, syncState: syncState))
        case .releaseKeychain, .forgetKeychain, .lockKeychain, .keychainStatus:
            guard user == nil else { throw .malformed }
            switch call.operation {
            case .releaseKeychain: self = .release
            case .forgetKeychain: self = .forget
            case .lockKeychain: self = .lock
            default: self = .status
            }
        default:
            return nil
        }
        guard fields.isEmpty else { throw .malformed }
    }
}

#endif
