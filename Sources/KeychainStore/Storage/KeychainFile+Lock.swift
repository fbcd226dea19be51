#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
import Crypto

/// Keychain password, lock and unlock: Apple's data protection model mapped onto Linux.
///
/// Without a password every class is available (a device without a passcode). With one, class
/// A items (`ak`, `aku`, `akpu`) are readable only while the keychain is unlocked, class C items
/// (`ck`, `cku`) from the first unlock until reboot, and class D items (`dk`, `dku`) always. While
/// a class is unavailable, reading or writing its items is `errSecInteractionNotAllowed`.
extension KeychainFile {
    /// How this process shares unlock state with the user's other processes.
    public enum UnlockSharing: Equatable, Sendable {
        /// Through the Linux kernel keyring: one unlock serves every process of the session.
        case kernelKeyring
        /// In this process only, because the kernel keyring is not available (the reason says why).
        case perProcess(reason: String)
    }

    /// Whether the keychain has a password.
    public var hasPassword: Bool {
        (try? withState { state throws(KeychainStoreError) in state.keybag.hasPassword }) ?? false
    }

    /// Whether class A items are unavailable now (always false without a password).
    public var isLocked: Bool {
        (try? withState { state throws(KeychainStoreError) in
            state.keybag.hasPassword && !state.keybag.hasKeys(Keybag.unlockedClasses)
        }) ?? true
    }

    /// How the unlock state is shared (a diagnostic: per-process when the kernel keyring is blocked).
    public var unlockSharing: UnlockSharing {
        state.withLock { state in
            switch state.unlock.sharing {
            case .kernelKeyring: return .kernelKeyring
            case .perProcess(let reason): return .perProcess(reason: reason)
            }
        }
    }

    /// Unlocks the keychain for every process of the user's login session, or with `scope`
    /// ``UnlockScope/allSessions`` for every process of the user.
    ///
    /// - Throws: `errSecAuthFailed` (-25293) for a wrong password; nothing changes then.
    ///   `errSecNotAvailable` (-25291) when the kernel keyring refuses the keys (a full key
    ///   quota): the keychain then stays locked rather than unlock for this call alone.
    public func unlock(password: String, scope: UnlockScope = .thisSession) throws(KeychainStoreError) {
        try withState { state throws(KeychainStoreError) in
            guard state.keybag.hasPassword else { return }
            try state.unlockWith(passwordKey: state.passwordKey(password), scope: scope)
        }
    }

    /// Locks the keychain for every process of the user: class A keys are dropped.
    public func lock() {
        try? withState { state throws(KeychainStoreError) in
            guard state.keybag.hasPassword else { return }
            state.keybag.dropKeys(Keybag.unlockedClasses)
            state.withdrawUnlock(includingFirstUnlock: false)
        }
    }

    /// The idle time after which the keychain locks itself, in seconds (nil: never).
    package var lockTimeout: TimeInterval? {
        state.withLock { $0.unlock.lockTimeout.map(TimeInterval.init) }
    }

    /// Sets the idle timeout (like `security set-keychain-settings -t`); nil or 0 turns it off.
    /// It is kept in the authenticated keybag, so removing it from the file is noticed.
    package func setLockTimeout(_ seconds: TimeInterval?) throws(KeychainStoreError) {
        let value = seconds.flatMap { $0 > 0 ? UInt32(min($0, Double(UInt32.max)).rounded(.up)) : nil }
        try withState { state throws(KeychainStoreError) in
            let written = try state.db.transaction(write: true) { () throws(KeychainStoreError) -> KeybagRecord in
                try state.reloadKeybag()
                var record = state.keybag.record
                record.lockTimeout = value
                return try state.writeKeybag(record)
            }
            state.keybag.replaceRecord(written)
            state.unlock.lockTimeout = value
            if let value, let serial = state.unlock.unlockedSerial { KernelKeyring.setTimeout(serial, seconds: value) }
        }
    }

    /// Removes this keychain's keys from the kernel keyring (when the keychain is deleted).
    public func forgetSharedUnlockState() {
        state.withLock { $0.withdrawUnlock(includingFirstUnlock: true) }
    }
}

extension KeychainFile.State {
    /// The key derived from `password` with the keychain's stored parameters (scrypt).
    func passwordKey(_ password: String) throws(KeychainStoreError) -> SymmetricKey {
        try passwordParameters().deriveKey(password: password, deviceKey: deviceKey, keychainID: keychainID)
    }

    func passwordParameters() throws(KeychainStoreError) -> PasswordKeyParameters {
        guard let encoded = keybag.record.passwordParameters else {
            throw .decode("the keychain's password parameters are missing")
        }
        return try PasswordKeyParameters(encoded: encoded)
    }

    /// Unwraps the password-protected class keys; a wrong password is `errSecAuthFailed`. A key
    /// that opens but does not match its check value means the keybag was tampered with.
    func passwordWrappedKeys(passwordKey key: SymmetricKey) throws(KeychainStoreError) -> [ProtectionClass: SymmetricKey] {
        var keys: [ProtectionClass: SymmetricKey] = [:]
        for (protection, entry) in keybag.record.classes where entry.wrapping == .passwordKey {
            let classKey: SymmetricKey
            do {
                classKey = try Keybag.unwrap(entry.wrapped, with: key, label: Keybag.classLabel(protection), keychainID: keychainID)
            } catch {
                throw .authFailed("the password is not correct")
            }
            guard entry.check.isEmpty || keybag.accepts(classKey, for: protection) else {
                throw .decode("the keychain's keybag is inconsistent (a class key does not match its check value)")
            }
            keys[protection] = classKey
        }
        return keys
    }

    func putSetting(_ name: String, _ value: Data) throws(KeychainStoreError) {
        try db.statement("INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value")
            .run([.text(name), .blob(value)])
    }
}
