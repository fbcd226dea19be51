import Foundation
package import KeychainAuthentication
package import KeychainCallerIdentity
import KeychainServices
package import KeychainSockets
package import KeychainStore
package import Logging
#if canImport(Glibc)
import Glibc
#endif

/// keychaind as the keeper (`--keeper`, docs/design-notes.md "The keeper"): the SecItem calls of
/// served processes arrive on a Unix socket, one length-prefixed message per call, and are run
/// on the keychain keychaind holds with the groups the caller's identity earns.
///
/// Who is calling is decided once per connection, from the kernel: `SO_PEERCRED` and
/// `SO_PEERPIDFD` at connect, then `/proc` through the pidfd (``CallerIdentityResolver``), and
/// mapped by the caller policy (``CallerPolicy``). What the caller claims for itself (its
/// `SWIFT_KEYCHAIN_ACCESS_GROUPS`, its entitlements file) is never read: it stays in the
/// caller's environment. A caller that cannot be identified has every call answered with
/// `errSecMissingEntitlement`, as Apple answers a process without keychain entitlements.
///
/// A user's keeper (`--keeper`) holds that user's login keychain and admits only that user; the
/// system keeper (`--system`) admits every user and serves each the keychain it holds for them
/// (``KeeperKeychains``).
package final class KeeperServer: Sendable {
    package let listener: UnixSocketListener
    let keychains: any KeeperKeychains
    let callerPolicy: CallerPolicy
    let logger: Logger
    /// Who asks a connection's user for the keychain password when a call needs the user, made
    /// once per connection from its caller; nil: nobody, and such a call is
    /// `errSecInteractionNotAllowed`.
    let prompt: (@Sendable (CallerIdentity) -> any KeychainAuthenticator)?

    /// Serves on `socketPath`, made here, or on `activated`, a listening socket the service
    /// manager passed (``SocketActivation``), when there is one.
    package init(keychains: any KeeperKeychains, socketPath: String, activated: Int32? = nil,
                 admission: UnixSocketListener.Admission = .sameUser, callerPolicy: CallerPolicy, logger: Logger,
                 prompt: (@Sendable (CallerIdentity) -> any KeychainAuthenticator)? = nil) throws(UnixSocketError) {
        self.keychains = keychains
        self.callerPolicy = callerPolicy
        self.logger = logger
        self.prompt = prompt
        if let activated {
            listener = UnixSocketListener(activated: activated, admission: admission)
        } else {
            listener = try UnixSocketListener(socketPath: socketPath, backlog: 128, admission: admission)
        }
    }

    package var socketPath: String { listener.socketPath }

    package func start() {
        listener.start(name: "keeper", report: { [logger] event in logger.notice("keeper: \(event)") }) { [self] connection, _ in
            serve(connection)
        }
    }

    package func stop() { listener.stop() }

    /// Who a connection is and the identity its calls are made with, or why it has none.
    package func identity(ofConnection connection: Int32) -> Result<(caller: CallerIdentity, identity: ClientIdentity), CallerIdentityError> {
        callerPolicy.identify(socket: connection, door: "keeper", logger: logger)
    }

    /// Answers one connection's calls until it closes or breaks the framing.
    func serve(_ connection: Int32) {
        defer { close(connection) }
        // Resolved before the first message is read, and the process that connected pinned. A
        // connection outlives its maker when the socket was inherited or passed on: once the
        // process that connected has exited, its identity says nothing of who is sending, so
        // every later call is refused.
        let identity = identity(ofConnection: connection)
        let authenticator: any KeychainAuthenticator
        switch identity {
        case .failure(let error):
            logger.notice("refusing the calls of a keeper client that could not be identified", metadata: ["reason": "\(error)"])
            authenticator = NonInteractiveAuthenticator()
        case .success(let (caller, _)):
            authenticator = prompt?(caller) ?? NonInteractiveAuthenticator()
        }
        while true {
            switch SocketIO.readMessage(connection, maximumLength: KeeperRequestHandler.maximumMessageLength) {
            case .closed:
                return
            case .tooLong(let length):
                logger.notice("keeper: closed a connection that sent a message length of \(length)")
                _ = SocketIO.writeAll(connection, SocketIO.lengthPrefixed(KeeperRequestHandler.refusal(status: errSecDecode)))
                return
            case .message(let message):
                switch identity {
                case .failure:
                    _ = SocketIO.writeAll(connection, SocketIO.lengthPrefixed(KeeperRequestHandler.refusal(status: errSecMissingEntitlement)))
                    return
                case .success(let (caller, _)) where caller.process.hasExited:
                    logger.notice("keeper: refused a call on a connection whose process has exited", metadata: ["process": "\(caller.processID)"])
                    _ = SocketIO.writeAll(connection, SocketIO.lengthPrefixed(KeeperRequestHandler.refusal(status: errSecMissingEntitlement)))
                    return
                case .success(let (caller, identity)):
                    let (answer, closeAfter) = answer(message, caller: caller, identity: identity, authenticator: authenticator)
                    guard SocketIO.writeAll(connection, SocketIO.lengthPrefixed(answer)), !closeAfter else { return }
                }
            }
        }
    }

    /// One message's answer: an item call runs on the caller's own keychain, a keychain call on
    /// the keychain it names once the caller may ask (``KeeperKeychainCall/target(callerUserID:callerIsSandboxed:)``).
    func answer(_ message: [UInt8], caller: CallerIdentity, identity: ClientIdentity,
                authenticator: any KeychainAuthenticator) -> (bytes: [UInt8], closeAfter: Bool) {
        switch KeeperKeychainCall.classify(message) {
        case .malformed:
            return (KeeperRequestHandler.refusal(status: errSecDecode), true)
        case .keychainCall(let call):
            let (status, reply) = run(call, for: caller)
            return (KeeperKeychainCall.answer(status: status, reply: reply), false)
        case .itemCall:
            do throws(KeychainStoreError) {
                guard let file = try keychains.keychain(forUser: caller.userID, create: true) else {
                    return (KeeperRequestHandler.refusal(status: errSecNoSuchKeychain), false)
                }
                return KeeperRequestHandler.answer(message, file: file, identity: identity, authenticator: authenticator)
            } catch {
                logger.error("keeper: a user's keychain could not be opened", metadata: ["user": "\(caller.userID)", "status": "\(error.status)"])
                return (KeeperRequestHandler.refusal(status: error.status), false)
            }
        }
    }

    /// Unlocks or re-keys a keychain, as `pam_keychain.so` asks at a login or a password change,
    /// or moves the caller's in or out.
    func run(_ call: KeeperKeychainCall, for caller: CallerIdentity) -> (OSStatus, KeeperKeychainCall.Reply?) {
        guard let user = call.target(callerUserID: caller.userID, callerIsSandboxed: caller.isSandboxed) else {
            logger.notice("keeper: refused a keychain call", metadata: [
                "caller": "\(caller.userID)", "process": "\(caller.processID)", "for": "\(call.user.map(String.init) ?? "itself")",
            ])
            return (errSecMissingEntitlement, nil)
        }
        do throws(KeychainStoreError) {
            switch call {
            case .unlock(_, let password, let create):
                let existed = try keychains.keychain(forUser: user, create: false) != nil
                guard existed || create, let file = try keychains.keychain(forUser: user, create: true) else {
                    return (errSecNoSuchKeychain, nil)
                }
                if !existed {
                    try file.setPassword(password, currentPassword: nil)
                    logger.info("keeper: created a user's keychain with the login password", metadata: ["user": "\(user)"])
                    return (errSecSuccess, .init(.created))
                }
                guard file.hasPassword else { return (errSecSuccess, .init(.hasNoPassword)) }
                // In the keeper's own session keyring (a new one, ``SystemKeeperProcess``): the
                // unlock ends when the keeper does; class C keys stay until reboot, as after a
                // first unlock.
                try file.unlock(password: password, scope: .thisSession)
                logger.info("keeper: unlocked a user's keychain", metadata: ["user": "\(user)"])
                return (errSecSuccess, .init(.unlocked))
            case .changePassword(_, let old, let new):
                guard let file = try keychains.keychain(forUser: user, create: false) else { return (errSecNoSuchKeychain, nil) }
                guard file.hasPassword else { return (errSecSuccess, .init(.hasNoPassword)) }
                try file.setPassword(new, currentPassword: old)
                logger.info("keeper: changed the password of a user's keychain", metadata: ["user": "\(user)"])
                return (errSecSuccess, .init(.passwordChanged))
            case .adopt(let moved):
                try keychains.adopt(moved, forUser: user)
                logger.info("keeper: took in a user's keychain", metadata: ["user": "\(user)"])
                return (errSecSuccess, .init(.adopted))
            case .release:
                guard let moved = try keychains.release(forUser: user) else { return (errSecNoSuchKeychain, nil) }
                return (errSecSuccess, .init(.released, moved: moved))
            case .lock:
                guard let file = try keychains.keychain(forUser: user, create: false) else { return (errSecNoSuchKeychain, nil) }
                guard file.hasPassword else { return (errSecSuccess, .init(.hasNoPassword)) }
                file.lock()
                logger.info("keeper: locked a user's keychain", metadata: ["user": "\(user)"])
                return (errSecSuccess, .init(.locked))
            case .status:
                guard let file = try keychains.keychain(forUser: user, create: false) else { return (errSecNoSuchKeychain, nil) }
                guard file.hasPassword else { return (errSecSuccess, .init(.hasNoPassword)) }
                return (errSecSuccess, .init(file.isLocked ? .locked : .unlocked))
            case .forget:
                guard try keychains.forget(forUser: user) else { return (errSecNoSuchKeychain, nil) }
                logger.info("keeper: deleted a user's keychain, moved out", metadata: ["user": "\(user)"])
                return (errSecSuccess, .init(.forgotten))
            }
        } catch {
            logger.notice("keeper: a keychain call failed", metadata: ["user": "\(user)", "status": "\(error.status)"])
            return (error.status, nil)
        }
    }
}
