import Foundation
import KeychainServices
import KeychainStore

/// Keychain-level operations (password, lock, settings, backups): thin calls into the engine's
/// `KeychainFile` API, with its errors turned into one-line failures.
enum KeychainAdministration {
    /// Sets, changes or (with `new` nil) removes the keychain's password.
    static func setPassword(_ file: KeychainFile, new: [UInt8]?, current: [UInt8]?, droppingSeals: Bool = false,
                            context: String) throws(CommandFailure) {
        let newText = try new.map { (bytes) throws(CommandFailure) in try text(bytes, context: context) }
        let currentText = try current.map { (bytes) throws(CommandFailure) in try text(bytes, context: context) }
        do {
            try file.setPassword(newText, currentPassword: currentText, droppingSeals: droppingSeals)
        } catch {
            throw .engine(error, context)
        }
    }

    /// Whether the keychain has a password (without one it can never be locked).
    static func hasPassword(_ file: KeychainFile, context: String) throws(CommandFailure) -> Bool {
        file.hasPassword
    }

    /// The note for a keychain without a password, which nothing (neither `lock-keychain` nor a
    /// timeout) can lock: it opens with the device key alone. It names the command that fixes it.
    static func cannotLockNote(_ target: KeychainSession.Target) -> String {
        let program = Console.programName
        return "\(program): \(target.url.path) has no password, so it cannot lock: nothing locks it, "
            + "neither lock-keychain nor a timeout, until a password is set with "
            + "`\(program) set-keychain-password\(target.commandArgument)`.\n"
    }

    static func isLocked(_ file: KeychainFile, context: String) throws(CommandFailure) -> Bool {
        file.isLocked
    }

    static func lock(_ file: KeychainFile, context: String) throws(CommandFailure) {
        file.lock()
    }

    static func unlock(_ file: KeychainFile, password: [UInt8], scope: UnlockScope = .thisSession,
                       context: String) throws(CommandFailure) {
        let password = try text(password, context: context)
        do {
            try file.unlock(password: password, scope: scope)
        } catch {
            throw .engine(error, context)
        }
    }

    /// Seconds of inactivity after which the keychain locks itself; nil for never.
    static func lockTimeout(_ file: KeychainFile, context: String) throws(CommandFailure) -> TimeInterval? {
        file.lockTimeout
    }

    static func setLockTimeout(_ file: KeychainFile, _ timeout: TimeInterval?, context: String) throws(CommandFailure) {
        do {
            try file.setLockTimeout(timeout)
        } catch {
            throw .engine(error, context)
        }
    }

    /// Writes a backup; returns the number of items written.
    static func exportBackup(_ file: KeychainFile, to url: URL, passphrase: [UInt8], context: String) throws(CommandFailure) -> Int {
        let passphrase = try text(passphrase, context: context)
        do {
            return try file.exportBackup(to: url, password: passphrase)
        } catch {
            throw .engine(error, context)
        }
    }

    /// Imports a backup; returns the number of items added or replaced.
    static func importBackup(_ file: KeychainFile, from url: URL, passphrase: [UInt8], context: String) throws(CommandFailure) -> Int {
        let passphrase = try text(passphrase, context: context)
        do {
            return try file.importBackup(from: url, password: passphrase)
        } catch {
            throw .engine(error, context)
        }
    }

    /// Unlocks `file` when it is locked, prompting for (or reading) its password; used by the
    /// commands that need secrets, as `security dump-keychain -d` asks to unlock first.
    static func unlockIfNeeded(_ file: KeychainFile, path: String) throws(CommandFailure) {
        guard file.isLocked else { return }
        let context = "SecKeychainUnlock \(path)"
        let password = try PasswordInput.read(prompt: "password to unlock \(path): ", context: context)
        do throws(CommandFailure) {
            try unlock(file, password: password, context: context)
        } catch {
            throw error.replacingHint(for: errSecAuthFailed, with: wrongKeychainPasswordHint(path))
        }
    }

    /// The hint for a keychain password that `unlock` refused.
    static func wrongKeychainPasswordHint(_ path: String) -> String {
        "The password of \(path) was not accepted, so it stays locked; try again."
    }

    /// The engine takes passwords as text; bytes that are not UTF-8 cannot be one.
    private static func text(_ bytes: [UInt8], context: String) throws(CommandFailure) -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .general(context, "the password is not valid UTF-8 text.", hint: nil)
        }
        return text
    }
}
