/// Who is calling keychaind, as the kernel tells it: resolved once per connection by
/// ``CallerIdentityResolver``, from the process pinned by a pidfd.
///
/// Every field says how far it can be trusted (docs/isolation.md): the user and group ids are
/// the kernel's; a system unit and a snap's AppArmor label are set by root or the kernel; a
/// Flatpak app id, a user unit, a snap cgroup and the executable can be forged by another
/// process of the same user outside any sandbox.
package struct CallerIdentity: Sendable {
    /// The process, still pinned: `process.isRunning` tells whether it is still there.
    package let process: PinnedProcess
    package var processID: Int32 { process.processID }
    /// The effective user and group ids: from SO_PEERCRED for a socket (as they were at
    /// connect), from the bus for a D-Bus caller (checked against /proc), from /proc otherwise.
    package let userID: UInt32
    package let groupID: UInt32
    /// The Flatpak app in whose sandbox the process runs, if any.
    package let flatpak: FlatpakApp?
    /// The snap the process belongs to, if any, with what says so.
    package let snap: SnapApp?
    /// The systemd unit the process runs in, if any.
    package let systemdUnit: SystemdUnit?
    /// The LSM label (AppArmor's `/proc/PID/attr/current`), if the kernel has one for it.
    package let securityLabel: String?
    /// Whether the process's root is this process's root: false inside a sandbox or container.
    package let sharesRoot: Bool
    /// Its executable, when the kernel shows it (path and SHA-256).
    package let executable: ExecutableFile?
    /// For an interpreter started on a script (``InterpreterScript``), that script; only for a
    /// process that shares this process's root.
    package let script: ExecutableFile?

    /// Run under Flatpak or snap: such a caller gets its own group by default, never the shared one.
    package var isSandboxed: Bool { flatpak != nil || snap != nil }
}
