import KeychainDBus

/// Who may call keychaind: processes of the user it runs as, and the bus itself.
///
/// The bus's configuration says who may connect to it, and a session bus normally lets only its
/// own user in. keychaind does not rest on that: a bus configured more loosely (a shared bus, a
/// test or container setup, `<allow user="*"/>`) would otherwise hand one user's secrets to
/// another. The check asks the bus which user each connection was made by (what the kernel told
/// it, never what the client says), once per connection.
extension SecretService {
    /// The `AccessDenied` reply for a call keychaind must not serve: one from another user's
    /// connection, or from one the bus cannot name a user for. Nil when the call may go on.
    func refusal(of call: DBusMethodCall) -> DBusReply? {
        let sender = call.sender
        if sender == DBusConnection.busName { return nil }
        let user: UInt32
        if let known = state.withLock({ $0.callers[sender]?.user }) {
            user = known
        } else {
            do {
                user = try connection.unixUser(of: sender)
            } catch {
                logger.notice("refused a call: the bus did not say which user made it")
                return accessDenied()
            }
            // Dropped when the client leaves the bus (``ServiceState/forget(peer:)``); unique
            // names are never given to a second connection.
            state.withLock { $0.callers[sender] = Caller(user: user) }
            if user != servedUser {
                logger.notice("refusing the calls of a client of another user", metadata: ["uid": "\(user)"])
            }
        }
        return user == servedUser ? nil : accessDenied()
    }

    /// How a prompt names the program of the client `sender`: asked of the bus and the kernel
    /// the first time one of its prompts runs, then kept for the connection (``CallerProgram``).
    func programName(of sender: String) -> String {
        if let known = state.withLock({ $0.callers[sender]?.program }) { return known }
        let program = CallerProgram.describe(processID: try? connection.processID(of: sender))
        state.withLock { $0.callers[sender]?.program = program }
        return program
    }

    private func accessDenied() -> DBusReply {
        .failure(SecretServiceError.accessDenied, "The Secret Service of this user serves only this user's programs")
    }
}

/// What keychaind learnt from the bus about one client connection.
struct Caller {
    /// The Unix user the connection was made by.
    let user: UInt32
    /// How a prompt names its program; nil until one of its prompts first runs.
    var program: String?
}
