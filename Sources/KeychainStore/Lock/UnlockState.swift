#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Crypto

/// How a keychain's unlock is shared, and the bookkeeping for it.
///
/// With the kernel keyring, unlocking puts the class A keys in the session keyring (with the
/// idle timeout as the key's expiry) and the class C keys in the user keyring (forgotten at
/// reboot); every process of the user reads them from there, so one unlock serves them all and
/// one lock locks them all. An unlock for all sessions (``UnlockScope/allSessions``) puts the
/// class A keys in the user keyring instead, where the user's processes outside that login
/// (`systemd --user` services, other logins) find them; readers look in the session keyring
/// first, then in the user keyring. A process takes them for one call at a time: it reads them
/// at the start of every call, accepts them only if they match the keybag's check values, and
/// drops them at the end, so a lock elsewhere leaves no class key in its memory. Without the
/// kernel keyring, each process keeps its own state (and its keys, since nothing else holds them).
struct UnlockState {
    enum Sharing: Equatable, Sendable {
        case kernelKeyring
        case perProcess(reason: String)
    }

    let sharing: Sharing
    let unlockedDescription: String
    let firstUnlockDescription: String
    /// The serial of the class A keys' key last read or written, in the session keyring or (for
    /// an unlock for all sessions) the user keyring: read by serial, it spares a search.
    var unlockedSerial: Int32?
    var firstUnlockSerial: Int32?
    /// Idle timeout in seconds; nil locks only on request.
    var lockTimeout: UInt32?
    var lastUse = Date()
    var lastTimeoutRefresh = Date.distantPast
    /// Digests of the last payloads that passed the check values, with the keybag generation they
    /// were checked against: the same bytes again need no new check (which costs an HMAC a key).
    var verifiedPayloads: [String: (generation: UInt64, digest: SHA256.Digest)] = [:]
    /// SQLite's `data_version` when the keybag was last known current.
    var dataVersion: Int64?

    init(keychainID: Data) {
        // Lower-case hex by hand: String(format:) would start Foundation's formatting machinery
        // in every process that opens a keychain, a measurable share of a short command's work
        // (Benchmarks/notes/2026-11-22-keychainctl-start-up.md).
        let digits = Array("0123456789abcdef".utf8)
        let id = String(decoding: keychainID.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0f)]] }, as: UTF8.self)
        unlockedDescription = "swift-keychain:\(id):unlocked"
        firstUnlockDescription = "swift-keychain:\(id):first-unlock"
        switch KernelKeyring.availability {
        case .success: sharing = .kernelKeyring
        case .failure(let failure): sharing = .perProcess(reason: failure.reason)
        }
    }
}

extension KeychainFile.State {
    /// Brings the keybag and the class keys in memory in line with the file and the shared
    /// unlock state (a password change, an unlock or lock elsewhere, an expired idle timeout).
    /// A call that is not a use of the keychain (`asUse` false: a watcher looking at its state)
    /// leaves the idle timeout where it was.
    func refreshLockState(asUse: Bool = true) throws(KeychainStoreError) {
        try reloadKeybagIfChanged()
        guard keybag.hasPassword else { return }
        let now = Date()
        switch unlock.sharing {
        case .kernelKeyring:
            var unlocked = importShared(unlock.unlockedDescription, ring: .session, Keybag.unlockedClasses, serial: unlock.unlockedSerial)
            if !unlocked.imported {
                // Not (or no longer: keys from before a password change) in this session:
                // unlocked for all sessions, perhaps.
                unlocked = importShared(unlock.unlockedDescription, ring: .user, Keybag.unlockedClasses, serial: nil)
            }
            unlock.unlockedSerial = unlocked.serial
            if unlocked.imported {
                // Use extends the idle timeout; refreshed at most once a second to stay cheap.
                if asUse, let timeout = unlock.lockTimeout, let serial = unlock.unlockedSerial,
                   now.timeIntervalSince(unlock.lastTimeoutRefresh) > 1 {
                    KernelKeyring.setTimeout(serial, seconds: timeout)
                    unlock.lastTimeoutRefresh = now
                }
            }
            unlock.firstUnlockSerial = importShared(unlock.firstUnlockDescription, ring: .user, Keybag.firstUnlockClasses,
                                                    serial: unlock.firstUnlockSerial).serial
        case .perProcess:
            if let timeout = unlock.lockTimeout, now.timeIntervalSince(unlock.lastUse) > Double(timeout) {
                keybag.dropKeys(Keybag.unlockedClasses)
            }
        }
        if asUse { unlock.lastUse = now }
    }

    /// Reads the keys of `classes` from the kernel keyring and takes them if they are this
    /// keychain's (by the check values); otherwise those classes stay locked. Returns whether it
    /// took them and the key's serial (remembered: reading by serial spares a search).
    private func importShared(_ description: String, ring: KernelKeyring.Ring, _ classes: [ProtectionClass],
                              serial known: Int32?) -> (imported: Bool, serial: Int32?) {
        var serial = known
        var payload = serial.flatMap { KernelKeyring.read($0) }
        if payload == nil, let found = KernelKeyring.search(description, in: ring) {
            serial = found
            payload = KernelKeyring.read(found)
        }
        guard var payload else {
            keybag.dropKeys(classes)
            return (false, nil)
        }
        defer { KernelKeyring.wipe(&payload) }
        let digest = SHA256.hash(data: payload)
        let generation = keybag.record.generation
        if let known = unlock.verifiedPayloads[description], known.generation == generation, known.digest == digest,
           keybag.importChecked(payload, classes) {
            return (true, serial)
        }
        guard keybag.importVerified(payload, classes) else {
            // Not this keychain's keys: planted by someone, or left from before a password change.
            unlock.verifiedPayloads[description] = nil
            keybag.dropKeys(classes)
            return (false, serial)
        }
        unlock.verifiedPayloads[description] = (generation, digest)
        return (true, serial)
    }

    /// Drops the class keys that the kernel keyring holds for every process, at the end of each
    /// call: the next call reads them again, so a lock in another process leaves none here.
    /// (Per-process unlocks keep theirs: nothing else holds them.)
    func forgetSharedKeys() {
        guard case .kernelKeyring = unlock.sharing, keybag.hasPassword else { return }
        keybag.dropKeys(Keybag.passwordClasses)
    }

    /// Publishes the unlocked keys to the user's other processes: the class A keys to this
    /// session's, or with `scope` ``UnlockScope/allSessions`` to every session's. Throws, having
    /// withdrawn everything, when the kernel refuses them, rather than report an unlock that
    /// would not last past this call.
    func publishUnlock(_ scope: UnlockScope) throws(KeychainStoreError) {
        guard case .kernelKeyring = unlock.sharing else { return }
        var failure: KernelKeyring.ProbeFailure?
        if let keys = keybag.export(Keybag.unlockedClasses) {
            // This session's own copy would shadow the one for all sessions (and be stale after
            // a password change).
            if scope == .allSessions { KernelKeyring.removeAll(unlock.unlockedDescription, in: .session) }
            switch KernelKeyring.add(unlock.unlockedDescription, keys, in: scope == .allSessions ? .user : .session) {
            case .success(let serial):
                unlock.unlockedSerial = serial
                if let timeout = unlock.lockTimeout { KernelKeyring.setTimeout(serial, seconds: timeout) }
                unlock.lastTimeoutRefresh = Date()
            case .failure(let refusal):
                failure = refusal
            }
        }
        if failure == nil, let keys = keybag.export(Keybag.firstUnlockClasses) {
            switch KernelKeyring.add(unlock.firstUnlockDescription, keys, in: .user) {
            case .success(let serial): unlock.firstUnlockSerial = serial
            case .failure(let refusal): failure = refusal
            }
        }
        if let failure {
            withdrawUnlock(includingFirstUnlock: false)
            keybag.dropKeys(Keybag.passwordClasses)
            throw .notAvailable("\(failure.reason); the keychain stays locked")
        }
    }

    /// Where the class A keys are shared now: for all sessions when the user keyring holds them.
    var publishedScope: UnlockScope {
        KernelKeyring.search(unlock.unlockedDescription, in: .user) != nil ? .allSessions : .thisSession
    }

    /// Withdraws the shared unlock (class A keys) from every process of the user: this session's,
    /// and the one for all sessions.
    func withdrawUnlock(includingFirstUnlock: Bool) {
        guard case .kernelKeyring = unlock.sharing else { return }
        KernelKeyring.removeAll(unlock.unlockedDescription, in: .session)
        KernelKeyring.removeAll(unlock.unlockedDescription, in: .user)
        unlock.unlockedSerial = nil
        if includingFirstUnlock {
            KernelKeyring.removeAll(unlock.firstUnlockDescription, in: .user)
            unlock.firstUnlockSerial = nil
        }
    }
}

/// Which of the user's processes an unlock reaches (the class A keys; the keys kept until reboot
/// always go to every session).
public enum UnlockScope: Sendable {
    /// The processes of this login session (its session keyring): the default, as on macOS,
    /// where another login of the same user finds the keychain locked.
    case thisSession
    /// Every process of the user, in any session: `systemd --user` services and other logins
    /// too, until the keychain is locked or its idle timeout passes.
    case allSessions
}
