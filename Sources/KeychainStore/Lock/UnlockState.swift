import Foundation

/// How a keychain's unlock is shared, and the bookkeeping for it.
///
/// With the kernel keyring, unlocking puts the class A keys in the session keyring (with the
/// idle timeout as the key's expiry) and the class C keys in the user keyring (forgotten at
/// reboot); every process of the user reads them from there, so one unlock serves them all and
/// one lock locks them all. Without it, each process keeps its own state.
struct UnlockState {
    enum Sharing: Equatable, Sendable {
        case kernelKeyring
        case perProcess(reason: String)
    }

    let sharing: Sharing
    let unlockedDescription: String
    let firstUnlockDescription: String
    var sessionSerial: Int32?
    /// Idle timeout in seconds; nil locks only on request.
    var lockTimeout: UInt32?
    var lastUse = Date()
    var lastTimeoutRefresh = Date.distantPast

    init(keychainID: Data) {
        let id = keychainID.map { String(format: "%02x", $0) }.joined()
        unlockedDescription = "swift-keychain:\(id):unlocked"
        firstUnlockDescription = "swift-keychain:\(id):first-unlock"
        switch KernelKeyring.availability {
        case .success: sharing = .kernelKeyring
        case .failure(let failure): sharing = .perProcess(reason: failure.reason)
        }
    }
}

extension KeychainFile.State {
    /// Brings the class keys in memory in line with the shared unlock state.
    func refreshLockState() {
        guard keybag.hasPassword else { return }
        let now = Date()
        switch unlock.sharing {
        case .kernelKeyring:
            var payload = unlock.sessionSerial.flatMap { KernelKeyring.read($0) }
            if payload == nil, let serial = KernelKeyring.search(unlock.unlockedDescription, in: .session) {
                unlock.sessionSerial = serial
                payload = KernelKeyring.read(serial)
            }
            if let payload, keybag.importKeys(payload, Keybag.unlockedClasses) {
                // Use extends the idle timeout; refreshed at most once a second to stay cheap.
                if let timeout = unlock.lockTimeout, let serial = unlock.sessionSerial,
                   now.timeIntervalSince(unlock.lastTimeoutRefresh) > 1 {
                    KernelKeyring.setTimeout(serial, seconds: timeout)
                    unlock.lastTimeoutRefresh = now
                }
            } else {
                unlock.sessionSerial = nil
                keybag.dropKeys(Keybag.unlockedClasses)
            }
            if !keybag.hasKeys(Keybag.firstUnlockClasses),
               let serial = KernelKeyring.search(unlock.firstUnlockDescription, in: .user),
               let payload = KernelKeyring.read(serial) {
                _ = keybag.importKeys(payload, Keybag.firstUnlockClasses)
            }
        case .perProcess:
            if let timeout = unlock.lockTimeout, now.timeIntervalSince(unlock.lastUse) > Double(timeout) {
                keybag.dropKeys(Keybag.unlockedClasses)
            }
        }
        unlock.lastUse = now
    }

    /// Publishes the unlocked keys to the user's other processes.
    func publishUnlock() {
        guard case .kernelKeyring = unlock.sharing else { return }
        if let keys = keybag.export(Keybag.unlockedClasses),
           let serial = KernelKeyring.add(unlock.unlockedDescription, keys, in: .session) {
            unlock.sessionSerial = serial
            if let timeout = unlock.lockTimeout { KernelKeyring.setTimeout(serial, seconds: timeout) }
            unlock.lastTimeoutRefresh = Date()
        }
        if let keys = keybag.export(Keybag.firstUnlockClasses) {
            _ = KernelKeyring.add(unlock.firstUnlockDescription, keys, in: .user)
        }
    }

    /// Withdraws the shared unlock (class A keys) from every process of the user.
    func withdrawUnlock(includingFirstUnlock: Bool) {
        guard case .kernelKeyring = unlock.sharing else { return }
        KernelKeyring.removeAll(unlock.unlockedDescription, in: .session)
        unlock.sessionSerial = nil
        if includingFirstUnlock { KernelKeyring.removeAll(unlock.firstUnlockDescription, in: .user) }
    }
}
