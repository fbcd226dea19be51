#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How this process holds its keychain: *embedded* (it opens the keychain file itself, the
/// zero-setup default) or *served* (every SecItem call goes to keychaind, the keeper, over a
/// Unix socket, and the file is never opened here). docs/design-notes.md, "The keeper".
///
/// The one place the choice is made: `SWIFT_KEYCHAIN_KEEPER` is unset or `embedded`, `served`
/// (the keeper of this user's session, ``defaultSocketPath(environment:)``), `system` (the
/// machine's keeper, ``systemSocketPath``, which holds each user's keychain where the user's
/// own processes cannot reach it), or the absolute path of a keeper's socket. Anything else is a mistake that must not fall back to the file
/// silently, so it is reported on every call (``KeychainStoreError/parameter(_:)``).
package enum KeychainKeeper: Sendable, Equatable {
    case embedded
    case served(socketPath: String)

    /// The variable that chooses.
    package static let environmentVariable = "SWIFT_KEYCHAIN_KEEPER"

    /// The system keeper's socket (`keychaind --system`).
    package static let systemSocketPath = "/run/swift-keychain/keeper"

    /// `$XDG_RUNTIME_DIR/keychain/keeper`, or nil without an absolute runtime folder.
    package static func defaultSocketPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        guard let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") else { return nil }
        return runtime + "/keychain/keeper"
    }

    /// The choice `environment` makes.
    package static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(KeychainStoreError) -> KeychainKeeper {
        guard let value = environment[environmentVariable], !value.isEmpty, value != "embedded" else { return .embedded }
        if value == "served" {
            guard let path = defaultSocketPath(environment: environment) else {
                throw .notAvailable("\(environmentVariable)=served needs XDG_RUNTIME_DIR, where the keeper's socket is")
            }
            return .served(socketPath: path)
        }
        if value == "system" { return .served(socketPath: systemSocketPath) }
        guard value.hasPrefix("/") else {
            throw .parameter("\(environmentVariable) must be embedded, served, system or the absolute path of a keeper's socket")
        }
        return .served(socketPath: value)
    }

    /// The socket, when served.
    package var socketPath: String? {
        if case .served(let path) = self { return path }
        return nil
    }

    /// Words for `keychainctl show-keychain-info`.
    package var summary: String {
        switch self {
        case .embedded: return "embedded (this process opens the keychain file)"
        case .served(let path): return "served by keychaind at \(path)"
        }
    }
}
