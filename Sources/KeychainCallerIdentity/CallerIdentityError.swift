/// Why a caller's identity could not be resolved. The caller is then refused: a door must not
/// fall back to a default identity, which would give the shared group to whoever failed.
package enum CallerIdentityError: Error, Equatable, Sendable, CustomStringConvertible {
    /// SO_PEERCRED failed on the socket (errno).
    case peerCredentialsUnavailable(Int32)
    /// No pidfd could be had for the caller (errno): SO_PEERPIDFD needs Linux 6.5.
    case pidfdUnavailable(Int32)
    /// The caller has exited (reaped, or a zombie) before its identity was read.
    case callerExited(processID: Int32)
    /// The pidfd names another process than the one the credentials name.
    case processMismatch(expected: Int32, pinned: Int32?)
    /// The process behind the bus's process id runs as another user than the bus said: most
    /// likely the id was reused after the caller exited.
    case userMismatch(said: UInt32, found: UInt32)
    /// A /proc file the identity cannot do without could not be read (errno) or parsed.
    case processUnreadable(processID: Int32, file: String, errno: Int32)
    /// The caller's root holds a `.flatpak-info` that cannot be read or is not valid.
    case invalidFlatpakInfo(processID: Int32, FlatpakApp.Failure)

    package var description: String {
        switch self {
        case .peerCredentialsUnavailable(let code):
            return "the socket's peer credentials could not be read (errno \(code))"
        case .pidfdUnavailable(let code):
            return "no pidfd could be had for the caller (errno \(code)); SO_PEERPIDFD needs Linux 6.5 or later"
        case .callerExited(let pid):
            return "process \(pid) exited before it could be identified"
        case .processMismatch(let expected, let pinned):
            return "the pidfd names process \(pinned.map(String.init) ?? "none"), not \(expected)"
        case .userMismatch(let said, let found):
            return "the process runs as user \(found), not \(said) as its connection said (a reused process id?)"
        case .processUnreadable(let pid, let file, let code):
            return "/proc/\(pid)/\(file) could not be read (errno \(code))"
        case .invalidFlatpakInfo(let pid, let failure):
            return "process \(pid) has a .flatpak-info that is not valid: \(failure)"
        }
    }
}
