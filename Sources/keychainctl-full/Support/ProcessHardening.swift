import CKeychainSystem

/// What keychainctl does to itself before it touches a password.
///
/// It reads passwords and, once a keychain is unlocked, holds class keys: a core dump would
/// write them to disk where other tools (crash reporters, `coredumpctl`) keep them. Turning
/// dumps off also keeps other processes of the user from attaching a debugger to it, or reading
/// its memory through `/proc`, while it runs.
enum ProcessHardening {
    /// Disables core dumps (not dumpable, core size 0). Best effort: a failure leaves the
    /// process as it was, which is no worse than before, so it is not an error.
    static func apply() {
        _ = cks_disable_core_dumps()
    }
}
