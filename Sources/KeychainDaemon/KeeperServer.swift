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
package final class KeeperServer: Sendable {
    package let listener: UnixSocketListener
    let file: KeychainFile
    let callerPolicy: CallerPolicy
    let logger: Logger
    /// Who asks a connection's user for the keychain password when a call needs the user, made
    /// once per connection from its caller; nil: nobody, and such a call is
    /// `errSecInteractionNotAllowed`.
    let prompt: (@Sendable (CallerIdentity) -> any KeychainAuthenticator)?

    package init(file: KeychainFile, socketPath: String, callerPolicy: CallerPolicy, logger: Logger,
                 prompt: (@Sendable (CallerIdentity) -> any KeychainAuthenticator)? = nil) throws(UnixSocketError) {
        self.file = file
        self.callerPolicy = callerPolicy
        self.logger = logger
        self.prompt = prompt
        listener = try UnixSocketListener(socketPath: socketPath, backlog: 128)
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
                case .success(let (_, identity)):
                    let (answer, closeAfter) = KeeperRequestHandler.answer(message, file: file, identity: identity, authenticator: authenticator)
                    guard SocketIO.writeAll(connection, SocketIO.lengthPrefixed(answer)), !closeAfter else { return }
                }
            }
        }
    }
}
