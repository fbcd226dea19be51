public import KeychainAuthentication
import KeychainStore

/// A scripted user: answers authentication requests from a list (repeating the last answer) and
/// records each request, so a test can say how often and with what it was asked.
public final class ScriptedUser: Sendable {
    private let state: Locked<(answers: [AuthenticationReply], requests: [AuthenticationRequest])>

    public init(_ answers: AuthenticationReply...) {
        state = Locked((answers, []))
    }

    public var requests: [AuthenticationRequest] { state.withLock { $0.requests } }

    public var authenticator: ProgrammableAuthenticator {
        .programmable { request in
            self.state.withLock { state in
                state.requests.append(request)
                return state.answers.count > 1 ? state.answers.removeFirst() : state.answers.first ?? .cancel
            }
        }
    }
}
