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
