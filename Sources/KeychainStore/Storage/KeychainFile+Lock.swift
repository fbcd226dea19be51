public import Foundation
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

    /// Unlocks the keychain for every process of the user.
    ///
    /// - Throws: `errSecAuthFailed` (-25293) for a wrong password; nothing changes then.
    public func unlock(password: String) throws(KeychainStoreError) {
        try withState { state throws(KeychainStoreError) in
            guard state.keybag.hasPassword else { return }
            let passwordKey = try state.passwordKey(password)
            let keys = try state.passwordWrappedKeys(passwordKey: passwordKey)
            // A keychain whose password predates presence keys gets one at its first unlock.
            if try KeychainFile.setting(KeychainFile.State.presencePublicSetting, state.db) == nil {
                _ = try state.presenceCredential(passwordKey: passwordKey)
            }
            for (protection, key) in keys { state.keybag.setKey(key, for: protection) }
            state.publishUnlock()
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

    /// Sets, changes or removes the keychain password.
    ///
    /// Only the class keys are re-wrapped, in one transaction, so a crash leaves either the old or
    /// the new password working. Removing the password destroys `akpu` items and items whose
    /// access control requires authentication, as removing a device's passcode does.
    ///
    /// - Parameters:
    ///   - newPassword: the new password; nil or empty removes the password.
    ///   - currentPassword: the current password, required when one is set.
    /// - Throws: `errSecAuthFailed` when the current password is missing or wrong.
    public func setPassword(_ newPassword: String?, currentPassword: String?) throws(KeychainStoreError) {
        try withState { state throws(KeychainStoreError) in
            var all: [ProtectionClass: SymmetricKey] = [:]
            var presenceKey: Curve25519.KeyAgreement.PrivateKey?
            if state.keybag.hasPassword {
                guard let currentPassword else { throw .authFailed("the keychain has a password; give the current one") }
                let currentKey = try state.passwordKey(currentPassword)
                all = try state.passwordWrappedKeys(passwordKey: currentKey)
                presenceKey = try state.existingPresenceKey(passwordKey: currentKey)
            }
            for protection in ProtectionClass.allCases where all[protection] == nil {
                all[protection] = try state.keybag.key(for: protection)
            }
            let removing = newPassword?.isEmpty ?? true
            if removing { all[.whenPasscodeSetThisDeviceOnly] = SymmetricKey(size: .bits256) }
            try state.db.transaction(write: true) { () throws(KeychainStoreError) in
                if let newPassword, !removing {
                    let parameters = PasswordKeyParameters.fresh()
                    let key = try parameters.deriveKey(password: newPassword, deviceKey: state.deviceKey, keychainID: state.keychainID)
                    try state.storeClassKeys(all, wrapping: .passwordKey, with: key)
                    // Items sealed to the presence key stay readable under the new password.
                    try state.storePresenceKey(presenceKey ?? Curve25519.KeyAgreement.PrivateKey(), passwordKey: key)
                    try state.putSetting("password-kdf", parameters.encoded)
                } else {
                    try state.removePresenceKey()
                    try state.storeClassKeys(all, wrapping: .deviceKey, with: state.deviceKey.key)
                    for itemClass in ItemClass.allCases {
                        try state.deleteRows(ItemTable(itemClass), where: "keyclass = ?",
                                             [.integer(Int64(ProtectionClass.whenPasscodeSetThisDeviceOnly.rawValue))])
                    }
                    try state.db.statement("DELETE FROM settings WHERE name = 'password-kdf'").run()
                }
            }
            for (protection, key) in all { state.keybag.setKey(key, for: protection) }
            state.keybag.hasPassword = !removing
            if removing {
                state.withdrawUnlock(includingFirstUnlock: true)
            } else {
                state.publishUnlock()
            }
        }
    }

    /// The idle time after which the keychain locks itself, in seconds (nil: never).
    public var lockTimeout: TimeInterval? {
        state.withLock { $0.unlock.lockTimeout.map(TimeInterval.init) }
    }

    /// Sets the idle timeout (like `security set-keychain-settings -t`); nil or 0 turns it off.
    public func setLockTimeout(_ seconds: TimeInterval?) throws(KeychainStoreError) {
        let value = seconds.flatMap { $0 > 0 ? UInt32(min($0, Double(UInt32.max)).rounded(.up)) : nil }
        try withState { state throws(KeychainStoreError) in
            try state.db.transaction(write: true) { () throws(KeychainStoreError) in
                if let value {
                    try state.putSetting("lock-timeout", withUnsafeBytes(of: value.littleEndian) { Data($0) })
                } else {
                    try state.db.statement("DELETE FROM settings WHERE name = 'lock-timeout'").run()
                }
            }
            state.unlock.lockTimeout = value
            if let value, let serial = state.unlock.sessionSerial { KernelKeyring.setTimeout(serial, seconds: value) }
        }
    }

    static func lockTimeoutSetting(_ db: SQLiteConnection) throws(KeychainStoreError) -> UInt32? {
        guard let data = try setting("lock-timeout", db), data.count == 4 else { return nil }
        return data.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self)) }
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

    /// Unwraps the password-protected class keys; a wrong password is `errSecAuthFailed`.
    func passwordWrappedKeys(passwordKey key: SymmetricKey) throws(KeychainStoreError) -> [ProtectionClass: SymmetricKey] {
        var keys: [ProtectionClass: SymmetricKey] = [:]
        let statement = try db.statement("SELECT class, wrapped FROM keybag WHERE wrapping = ?")
        statement.bind([.integer(Keybag.Wrapping.passwordKey.rawValue)])
        while try statement.step() {
            guard let protection = ProtectionClass(rawValue: Int(statement.int64(0))), let wrapped = statement.blob(1) else { continue }
            do {
                keys[protection] = try Keybag.unwrap(wrapped, with: key, label: Keybag.classLabel(protection), keychainID: keychainID)
            } catch {
                throw .authFailed("the password is not correct")
            }
        }
        return keys
    }

    /// Writes the password-protected classes' keys wrapped by `wrappingKey`.
    func storeClassKeys(_ keys: [ProtectionClass: SymmetricKey], wrapping: Keybag.Wrapping, with wrappingKey: SymmetricKey) throws(KeychainStoreError) {
        for protection in Keybag.passwordClasses {
            guard let key = keys[protection] else { throw .internal("a class key is missing") }
            let wrapped = try Keybag.wrap(key, with: wrappingKey, label: Keybag.classLabel(protection), keychainID: keychainID)
            try db.statement("UPDATE keybag SET wrapping = ?, wrapped = ? WHERE class = ?")
                .run([.integer(wrapping.rawValue), .blob(wrapped), .integer(Int64(protection.rawValue))])
        }
    }

    func putSetting(_ name: String, _ value: Data) throws(KeychainStoreError) {
        try db.statement("INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value")
            .run([.text(name), .blob(value)])
    }
}
