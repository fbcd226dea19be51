import Foundation
import KeychainAuthentication
import KeychainStore
import KeychainTestSupport

/// A test keychain with `password` set (nil: none).
func makeKeychain(password: String?) throws -> TestKeychain {
    let keychain = try TestKeychain()
    if let password { try keychain.file.setPassword(password, currentPassword: nil) }
    return keychain
}

/// A scripted user: answers requests from a list (repeating the last answer) and records each
/// request, so a test can say how often and with what it was asked.
final class ScriptedUser: Sendable {
    private let state: Locked<(answers: [AuthenticationReply], requests: [AuthenticationRequest])>

    init(_ answers: AuthenticationReply...) {
        state = Locked((answers, []))
    }

    var requests: [AuthenticationRequest] { state.withLock { $0.requests } }

    var authenticator: ProgrammableAuthenticator {
        .programmable { request in
            self.state.withLock { state in
                state.requests.append(request)
                return state.answers.count > 1 ? state.answers.removeFirst() : state.answers.first ?? .cancel
            }
        }
    }
}

/// A clock the test moves by hand, so reuse windows are tested without sleeping.
final class ManualClock: Sendable {
    private let seconds = Locked<TimeInterval>(1_000)

    func advance(by interval: TimeInterval) { seconds.withLock { $0 += interval } }

    var read: @Sendable () -> TimeInterval { { self.seconds.withLock { $0 } } }
}

/// Runs `body` with `user` answering prompts and biometry simulated or not, in this task only.
func asking<T>(_ user: ScriptedUser, simulatedBiometry: Bool = false, _ body: () throws -> T) rethrows -> T {
    try KeychainAuthenticators.withAuthenticator(user.authenticator, simulatedBiometry: simulatedBiometry, body)
}

/// The LAError `body` throws, or nil when it succeeds.
func laError(_ body: () throws(LAError) -> some Any) -> LAError.Code? {
    do {
        _ = try body()
        return nil
    } catch {
        return error.code
    }
}
