import KeychainStore
import KeychainctlCommandLine
import KeychainctlPasswords
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the front does with a ``PasswordRequest``: runs it through the one executor with no
/// prompts, or says to hand the command line on to keychainctl-full.
enum Front {
    /// What a served command line writes.
    struct Output {
        var standardOutput: [UInt8] = []
        var standardError: [UInt8] = []
    }

    /// Whether the front tries `request` itself: on the default keychain only, with the
    /// password (for add) given as a value or not at all, without four-character codes (whose
    /// malformed values are keychainctl-full's to report), and not `--json`.
    static func serves(_ request: PasswordRequest) -> Bool {
        guard request.keychains.isEmpty,
              !PasswordCommandSyntax.codeKeys.contains(where: { request.attributes[$0] != nil }) else { return false }
        switch request.action {
        case .find(_, let json): return !json
        case .add(let password, _): return password != .prompt
        case .delete: return true
        }
    }

    /// The bytes to write, or nil to hand the command line on: no default keychain or device
    /// key yet (keychainctl-full creates them), and every failure, not-found included (a locked
    /// keychain, an item that asks for authentication, a duplicate), so that every message and
    /// exit status is keychainctl-full's. Nothing is written or changed when nil is returned, so
    /// running the command line again there is safe.
    static func run(_ request: PasswordRequest) -> Output? {
        // Read once: the environment dictionary is rebuilt from `environ` on every read of
        // ProcessInfo's, a noticeable share of a process this short (BENCHMARKS.md section 4).
        let environment = ProcessInfo.processInfo.environment
        // The installed front is a fully static program (scripts/build-front.sh), whose C library
        // reaches the user database only through shared modules of its own version: without
        // HOME, finding the home folder is left to keychainctl-full.
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        // Served, the file is not opened here; keychainctl-full sends the request to the keeper
        // (or reports a value of SWIFT_KEYCHAIN_KEEPER that names none).
        guard (try? KeychainKeeper.fromEnvironment(environment)) == .embedded else { return nil }
        let keychain = KeychainPaths.defaultKeychain(environment: environment)
        var output = Output()
        let executor = PasswordExecutor(
            keychainCount: 1,
            open: { _ in
                // create: false for both, so that making the default keychain and its device key
                // stays keychainctl-full's.
                let deviceKey = try DeviceKey.load(from: DeviceKey.defaultLocation(environment: environment), create: false)
                return try KeychainFile.open(at: keychain, deviceKey: deviceKey, create: false)
            },
            keychainPath: { _ in keychain.path },
            authorizer: { _, _, _ in nil },
            password: { password in
                guard case .given(let text) = password else { throw PasswordFailure.unserved }
                return Array(text.utf8)
            },
            realNumberBytes: { _ in nil },
            json: { _, _, _ in throw PasswordFailure.unserved },
            write: { stream, bytes in
                switch stream {
                case .output: output.standardOutput += bytes
                case .error: output.standardError += bytes
                }
            })
        do {
            try executor.run(request)
        } catch {
            return nil
        }
        return output
    }
}
