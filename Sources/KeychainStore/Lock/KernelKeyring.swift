#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CKeychainSystem
#if canImport(Glibc)
import Glibc
#endif

/// The Linux kernel keyring, used to share unlock state between a user's processes.
///
/// Keys of the *session* keyring are seen by every process of the login session and can expire
/// (the idle timeout); keys of the *user* keyring are seen by every process of the user and are
/// forgotten at reboot. Containers often block these system calls: callers fall back to keeping
/// state in the process.
enum KernelKeyring {
    enum Ring {
        case session, user
        var id: Int32 { self == .session ? KernelKeyring.sessionKeyringID : CKS_KEY_SPEC_USER_KEYRING }
    }

    /// This process's session keyring, looked up without creating one. A process started outside
    /// a login session (cron, CI, ssh without pam_keyinit) has none: adding a key to the special
    /// session id would then create a new anonymous keyring private to this process, so nothing
    /// would be shared. Looked up without "create", the kernel attaches the user-session keyring
    /// instead, which every such process of the user shares.
    static let sessionKeyringID: Int32 = {
        let id = cks_keyctl_get_keyring_id(CKS_KEY_SPEC_SESSION_KEYRING, 0)
        return id >= 0 ? Int32(id) : CKS_KEY_SPEC_SESSION_KEYRING
    }()

    /// Whether the kernel keyring works here, and if not, why (probed once per process).
    static let availability: Result<Void, ProbeFailure> = probe()

    struct ProbeFailure: Error { let reason: String }

    private static func probe() -> Result<Void, ProbeFailure> {
        // Lets a test (or a cautious deployment) see the fallback without a container.
        // getenv, not ProcessInfo's dictionary, which is rebuilt from the whole environment per read.
        if let value = getenv("SWIFT_KEYCHAIN_NO_KERNEL_KEYRING"), String(cString: value) == "1" {
            return .failure(ProbeFailure(reason: "the kernel keyring is turned off by SWIFT_KEYCHAIN_NO_KERNEL_KEYRING"))
        }
        let description = "swift-keychain:probe:\(getpid())"
        let serial = cks_add_key("user", description, "1", 1, Ring.session.id)
        guard serial >= 0 else {
            return .failure(ProbeFailure(reason: "the kernel keyring is not available (\(String(cString: strerror(errno))))"))
        }
        _ = cks_keyctl_invalidate(serial)
        return .success(())
    }

    /// Stores `payload` under `description`, replacing an existing key of that name; returns its
    /// serial, or why the kernel refused (a full key quota, typically).
    static func add(_ description: String, _ payload: Data, in ring: Ring) -> Result<Int32, ProbeFailure> {
        // Created in the session keyring first: a process "possesses" what it reaches from its
        // session, and only a possessor may change a new key's permissions. The user keyring is
        // not always linked from a process's session, so a key created there directly could not
        // even be read back by its creator.
        removeAll(description, in: ring)
        #if DEBUG
        if let injected = FaultInjection.fault(.keyringAdd) { return .failure(refusal(injected)) }
        #endif
        let serial = payload.withUnsafeBytes { cks_add_key("user", description, $0.baseAddress, $0.count, Ring.session.id) }
        guard serial >= 0 else { return .failure(refusal(errno)) }
        // Give the owning user all rights too, so the user's other processes can read it without
        // possessing it. Other users still get none; code running as the same user is outside
        // what the keyring protects against anyway (threat model).
        _ = cks_keyctl_setperm(serial, 0x3f3f_0000)
        if ring == .user {
            guard cks_keyctl_link(serial, Ring.user.id) >= 0 else {
                let failure = refusal(errno)
                invalidate(serial)
                return .failure(failure)
            }
            _ = cks_keyctl_unlink(serial, Ring.session.id)
        }
        return .success(serial)
    }

    private static func refusal(_ code: Int32) -> ProbeFailure {
        let hint = code == EDQUOT ? " (this user's key quota is full: see /proc/sys/kernel/keys/maxkeys and maxbytes)" : ""
        return ProbeFailure(reason: "the kernel keyring refused the unlock keys: \(String(cString: strerror(code)))\(hint)")
    }

    /// The serial of the key called `description` reachable from `ring`, if any.
    static func search(_ description: String, in ring: Ring) -> Int32? {
        let serial = cks_keyctl_search(ring.id, description)
        return serial >= 0 ? Int32(serial) : nil
    }

    /// The payload of key `serial`, or nil if it expired, was invalidated or never existed.
    /// The caller should wipe the returned bytes (``wipe(_:)``) once it has taken the keys.
    static func read(_ serial: Int32, maximumLength: Int = 256) -> Data? {
        var buffer = [UInt8](repeating: 0, count: maximumLength)
        let count = buffer.withUnsafeMutableBytes { cks_keyctl_read(serial, $0.baseAddress, $0.count) }
        defer { buffer.withUnsafeMutableBytes { cks_secure_zero($0.baseAddress, $0.count) } }
        guard count >= 0, count <= maximumLength else { return nil }
        return Data(buffer[0..<count])
    }

    /// Overwrites key material read from the keyring.
    static func wipe(_ data: inout Data) {
        data.withUnsafeMutableBytes { SecretBuffer.wipe($0) }
    }

    static func setTimeout(_ serial: Int32, seconds: UInt32) {
        _ = cks_keyctl_set_timeout(serial, seconds)
    }

    static func invalidate(_ serial: Int32) {
        _ = cks_keyctl_invalidate(serial)
    }

    /// Unlinks and invalidates every key called `description` in `ring`. Unlinking takes effect
    /// at once; invalidation alone is finished by the kernel's garbage collector later, so a
    /// search right after it may still find the key. Bounded, in case the kernel refuses.
    static func removeAll(_ description: String, in ring: Ring) {
        var seen: Set<Int32> = []
        while let serial = search(description, in: ring), seen.insert(serial).inserted, seen.count <= 16 {
            _ = cks_keyctl_unlink(serial, ring.id)
            _ = cks_keyctl_invalidate(serial)
        }
    }
}
