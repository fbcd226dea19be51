import Foundation
import KeychainAuthentication
import KeychainLocking
import KeychainServices
import KeychainSockets
import KeychainStore
#if canImport(Glibc)
import Glibc
#endif

/// A keeper inside the test process, for running suites written for the embedded keychain
/// served instead (`SWIFT_KEYCHAIN_TEST_SERVED=1`, the one switch; docs/design-notes.md "The
/// keeper"): each call a test makes crosses a real Unix socket, is encoded and decoded as
/// keychaind's are, and is answered by `KeeperRequestHandler`, the code keychaind runs. The
/// identity is the one the test chose (there is no other process to resolve), and the
/// authenticator the one the calling task had when it made the call.
final class InProcessKeeper: Sendable {
    /// Whether this test process runs its keychains served.
    static let isOn = ProcessInfo.processInfo.environment["SWIFT_KEYCHAIN_TEST_SERVED"] == "1"

    let listener: UnixSocketListener
    /// The authenticator of the call in progress, and whether it simulates biometry; set by
    /// ``run(_:)`` around the call.
    private let authentication = Locked<(authenticator: any KeychainAuthenticator, simulatedBiometry: Bool)?>(nil)

    init(file: KeychainFile, identity: ClientIdentity, socketPath: String) throws {
        listener = try UnixSocketListener(socketPath: socketPath, backlog: 64)
        listener.start(name: "test-keeper", report: { _ in }) { [authentication] connection, _ in
            defer { close(connection) }
            while case .message(let message) = SocketIO.readMessage(connection, maximumLength: KeeperRequestHandler.maximumMessageLength) {
                let current = authentication.withLock { $0 }
                let (answer, closeAfter) = KeychainAuthenticators.withAuthenticator(NonInteractiveAuthenticator(),
                                                                                    simulatedBiometry: current?.simulatedBiometry ?? false) {
                    KeeperRequestHandler.answer(message, file: file, identity: identity,
                                                authenticator: current?.authenticator ?? NonInteractiveAuthenticator())
                }
                guard SocketIO.writeAll(connection, SocketIO.lengthPrefixed(answer)), !closeAfter else { return }
            }
        }
    }

    /// Runs `body` with its SecItem calls going to this keeper.
    func run<T>(_ body: () throws -> T) rethrows -> T {
        let previous = authentication.withLock { held in
            defer { held = (KeychainAuthenticators.current, KeychainAuthenticators.simulatedBiometry) }
            return held
        }
        defer { authentication.withLock { $0 = previous } }
        return try KeychainContext.withKeeper(.served(socketPath: listener.socketPath), body)
    }

    deinit { listener.stop() }
}
