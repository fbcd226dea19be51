import KeychainCallerIdentity
import KeychainDBus
import KeychainStore
#if canImport(Glibc)
import Glibc
#endif

/// Who may call keychaind, and as which identity.
///
/// Only processes of the user keychaind runs as, and the bus itself. The bus's configuration says
/// who may connect to it, and a session bus normally lets only its own user in. keychaind does not
/// rest on that: a bus configured more loosely (a shared bus, a test or container setup,
/// `<allow user="*"/>`) would otherwise hand one user's secrets to another.
///
/// Each admitted connection is then given the identity its process has (docs/isolation.md): the
/// bus says which process made it (what the kernel told the bus at connect, never what the client
/// says), ``CallerIdentityResolver`` reads who that process is, and ``CallerPolicy`` maps it to
/// the access groups every call of the connection is made with. All of it once per connection:
/// the bus never gives a unique name to a second connection, so the identity holds for every later
/// call on that name, and no call pays for /proc or a digest again.
extension SecretService {
    /// What a call is made as, or the reply that refuses it.
    enum Admission {
        case admitted(ClientIdentity)
        case refused(DBusReply)
    }

    /// Admits `call` with its connection's identity, deciding that identity on the connection's
    /// first call.
    func admission(of call: DBusMethodCall) -> Admission {
        let sender = call.sender
        // The bus asks nothing of the keychain's items; it keeps the view it always had.
        if sender == DBusConnection.busName { return .admitted(.unconfigured) }
        if let known = state.withLock({ $0.callers[sender]?.access }) { return Self.admission(known) }
        let access = decideAccess(of: sender)
        // Dropped when the client leaves the bus (``ServiceState/forget(peer:)``); unique names
        // are never given to a second connection. A bus that could not say who the connection
        // belongs to is asked again on the next call.
        if let access {
            state.withLock { state in
                if state.callers[sender] == nil { state.callers[sender] = Caller(access: access) }
            }
            return Self.admission(access)
        }
        return .refused(Self.accessDenied("The Secret Service cannot tell which user made this connection"))
    }

    /// The identity the client `sender` was given, if it has called and was admitted.
    func identity(of sender: String) -> ClientIdentity? {
        guard case .granted(let identity)? = state.withLock({ $0.callers[sender]?.access }) else { return nil }
        return identity
    }

    /// How a prompt names the program of the client `sender`: asked of the bus and the kernel
    /// the first time one of its prompts runs, then kept for the connection (``CallerProgram``).
    func programName(of sender: String) -> String {
        if let known = state.withLock({ $0.callers[sender]?.program }) { return known }
        let program = CallerProgram.describe(processID: try? connection.processID(of: sender))
        state.withLock { $0.callers[sender]?.program = program }
        return program
    }

    /// Nil when the bus would not say which user made the connection (nothing is kept then).
    private func decideAccess(of sender: String) -> Caller.Access? {
        let user: UInt32
        do {
            user = try connection.unixUser(of: sender)
        } catch {
            logger.notice("refused a call: the bus did not say which user made it")
            return nil
        }
        guard user == servedUser else {
            logger.notice("refusing the calls of a client of another user", metadata: ["uid": "\(user)"])
            return .refused("The Secret Service of this user serves only this user's programs")
        }
        let processID: UInt32
        do {
            // The bus's own pidfd for the connection (`ProcessFD`) would close the window in
            // which a process id can be reused before it is pinned; keychaind's bus library does
            // not ask for it, and Debian 12's dbus-daemon gives none.
            processID = try connection.processID(of: sender)
        } catch {
            logger.notice("refused a call: the bus did not say which process made it")
            return .refused("The Secret Service cannot tell which process made this connection, so it cannot tell which items it may see")
        }
        let identified = callerPolicy.identify(door: "secret-service", logger: logger) { hashing throws(CallerIdentityError) in
            try CallerIdentityResolver.resolve(busProcessID: processID, userID: user, hashing: hashing)
        }
        switch identified {
        case .success(let (_, identity)):
            return .granted(identity)
        case .failure(let error):
            logger.notice("refusing the calls of a client that could not be identified", metadata: ["reason": "\(error)"])
            return .refused(Self.unidentifiedMessage(error))
        }
    }

    /// The refusal's message for a caller whose identity could not be read: what went wrong,
    /// and for a root that cannot be opened, why that is not taken as "a host program".
    static func unidentifiedMessage(_ error: CallerIdentityError) -> String {
        if case .processUnreadable(_, "root", let code) = error, code == EACCES || code == EPERM {
            return "The Secret Service cannot see whether this program runs in a sandbox: it made itself not dumpable, "
                + "so its root cannot be read by a daemon of the same user, and a sandboxed app could do the same to pass "
                + "for a host program. A D-Bus client must stay dumpable (docs/isolation.md)"
        }
        return "The Secret Service could not identify this program (\(error)), and it serves only programs it can identify"
    }

    private static func admission(_ access: Caller.Access) -> Admission {
        switch access {
        case .granted(let identity): return .admitted(identity)
        case .refused(let message): return .refused(accessDenied(message))
        }
    }

    private static func accessDenied(_ message: String) -> DBusReply {
        .failure(SecretServiceError.accessDenied, message)
    }
}

/// What keychaind decided about one client connection.
struct Caller {
    enum Access {
        /// Its calls are made as this identity.
        case granted(ClientIdentity)
        /// Its calls are refused (`AccessDenied`) with this message.
        case refused(String)
    }

    let access: Access
    /// How a prompt names its program; nil until one of its prompts first runs.
    var program: String?
}
