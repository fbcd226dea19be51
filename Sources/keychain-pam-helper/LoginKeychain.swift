import Foundation
import KeychainStore

/// What the helper does to the user's login keychain, with the passwords pam_keychain.so hands it.
///
/// The login keychain is the file the library uses when nothing points it elsewhere:
/// `${XDG_DATA_HOME:-~/.local/share}/keychains/login.keychain-db`, found through the keychains
/// folder only (`SWIFT_KEYCHAIN_PATH` is a per-process choice, not the login keychain). A user
/// without one, or with one that has no password, is left exactly as they were: the helper never
/// creates a file unless asked to (`--create`), and never gives a password to a keychain that
/// had none.
struct LoginKeychain {
    let url: URL

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        var environment = environment
        environment[KeychainPaths.keychainPathVariable] = nil
        url = KeychainPaths.defaultKeychain(environment: environment)
    }

    private var path: String { url.path }

    /// Unlocks the login keychain with `password`, for `scope`; with `create`, a missing one is
    /// created with it as its password (and is then unlocked).
    func unlock(password: [UInt8], create: Bool, scope: UnlockScope) throws(HelperExit) -> String {
        guard exists else {
            guard create else { throw HelperExit(.nothingToDo, "no login keychain at \(path); nothing to unlock") }
            let created = try createLocked(password: password)
            guard scope == .allSessions, case .kernelKeyring = try open().unlockSharing else { return created }
            // Setting the password unlocked it for this session; now for all of them.
            _ = try unlock(password: password, create: false, scope: scope)
            return created + " for all sessions"
        }
        let file = try open()
        guard file.hasPassword else { throw HelperExit(.nothingToDo, "\(path) has no password, so it is never locked; left as it is") }
        if case .perProcess(let reason) = file.unlockSharing {
            throw HelperExit(.noSharedUnlock, "\(reason): an unlock here would end with this helper, so \(path) stays locked")
        }
        do {
            try file.unlock(password: text(password), scope: scope)
        } catch where error.status == SecStatus.authFailed {
            throw HelperExit(.wrongPassword, "the login password does not open \(path) (its password differs); it stays locked")
        } catch {
            throw HelperExit(.failed, "\(path) could not be unlocked: \(error.reason)")
        }
        return scope == .allSessions ? "unlocked \(path) for all sessions" : "unlocked \(path)"
    }

    /// Re-keys the login keychain from `old` to `new`, when `old` is its password.
    func changePassword(old: [UInt8], new: [UInt8]) throws(HelperExit) -> String {
        guard exists else { throw HelperExit(.nothingToDo, "no login keychain at \(path); nothing to re-key") }
        let file = try open()
        guard file.hasPassword else {
            throw HelperExit(.nothingToDo, "\(path) has no password; it is left without one")
        }
        do {
            try file.setPassword(text(new), currentPassword: text(old))
        } catch where error.status == SecStatus.authFailed {
            throw HelperExit(.wrongPassword, "the old login password does not open \(path) (its password differs); its password is unchanged")
        } catch {
            throw HelperExit(.failed, "the password of \(path) could not be changed: \(error.reason); it is unchanged")
        }
        return "changed the password of \(path) to the new login password"
    }

    /// Whether there is anything at the path (a link or a damaged file too: opening says what is wrong).
    private var exists: Bool {
        (try? FileManager.default.attributesOfItem(atPath: path)) != nil
    }

    private func open() throws(HelperExit) -> KeychainFile {
        do {
            return try KeychainFile.open(at: url, create: false)
        } catch {
            throw HelperExit(.failed, "\(path) could not be opened: \(error.reason)")
        }
    }

    private func createLocked(password: [UInt8]) throws(HelperExit) -> String {
        let file: KeychainFile
        do {
            file = try KeychainFile.open(at: url, create: true)
        } catch {
            throw HelperExit(.failed, "\(path) could not be created: \(error.reason)")
        }
        do {
            try file.setPassword(text(password), currentPassword: nil)
        } catch {
            // Leave no keychain behind without the password it was meant to have.
            file.forgetSharedUnlockState()
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            throw HelperExit(.failed, "\(path) could not be given the login password: \(error.reason); it was not created")
        }
        if case .perProcess(let reason) = file.unlockSharing {
            return "created \(path) with the login password; it stays locked (\(reason))"
        }
        return "created \(path) with the login password, unlocked"
    }

    /// The engine takes passwords as text; ``SecretInput`` has already checked they are UTF-8.
    private func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}
