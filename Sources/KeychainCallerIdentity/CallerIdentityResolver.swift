import CKeychainSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Resolves who is at the other end of a connection, from the kernel only, once.
///
/// The order matters: first the process is pinned by a pidfd; then its /proc directory is opened
/// and everything is read relative to it; last the pidfd is asked whether the process still has
/// its id. A process id is not reused while its process exists, so a yes proves that every read
/// was of the pinned process, not of a newcomer with the same id. A caller that has exited by
/// then is refused.
package enum CallerIdentityResolver {
    /// The caller at the other end of a connected Unix socket: SO_PEERCRED for the user, group
    /// and process ids as they were at connect, SO_PEERPIDFD for the process itself (a pidfd
    /// the kernel took at connect, so no reused process id can stand in for it).
    /// `hashing`: whose executable to hash (the door's rules say; ``ExecutableHashing``).
    package static func resolve(socket: Int32, hashing: ExecutableHashing = .always) throws(CallerIdentityError) -> CallerIdentity {
        var pid: Int32 = 0, uid: UInt32 = 0, gid: UInt32 = 0
        guard cks_peer_credentials(socket, &pid, &uid, &gid) == 0 else { throw .peerCredentialsUnavailable(errno) }
        let pidfd = cks_peer_pidfd(socket)
        guard pidfd >= 0 else {
            // Kernels that refuse a pidfd for a peer that is gone say ESRCH.
            if errno == ESRCH { throw .callerExited(processID: pid) }
            throw .pidfdUnavailable(errno)
        }
        // On current kernels SO_PEERPIDFD succeeds for a peer already reaped; its pidfd then
        // names no process (fdinfo `Pid: -1`).
        let process = PinnedProcess(descriptor: pidfd, processID: pid)
        guard pid > 0 else { throw .callerExited(processID: pid) }
        return try read(process, userID: uid, groupID: gid, checkUser: false, hashing: hashing)
    }

    /// A D-Bus caller, from the process id and user id the bus gave for its connection
    /// (`GetConnectionCredentials`). The bus took them from its own socket when the caller
    /// connected; the process is pinned here with pidfd_open, later, so the id may by then
    /// belong to another process. What is checked: the pinned process exists and runs as the
    /// user the bus said. What remains: a process of the same user that got the id after the
    /// caller exited passes for it; only a pidfd from the bus itself (`ProcessFD`, see
    /// ``resolve(busProcessFD:userID:)``) closes that.
    package static func resolve(busProcessID pid: UInt32, userID uid: UInt32,
                                hashing: ExecutableHashing = .always) throws(CallerIdentityError) -> CallerIdentity {
        guard pid > 0, pid <= UInt32(Int32.max) else { throw .callerExited(processID: Int32(truncatingIfNeeded: pid)) }
        let descriptor = cks_pidfd_open(Int32(pid))
        guard descriptor >= 0 else {
            if errno == ESRCH { throw .callerExited(processID: Int32(pid)) }
            throw .pidfdUnavailable(errno)
        }
        return try read(PinnedProcess(descriptor: descriptor, processID: Int32(pid)), userID: uid, groupID: nil, checkUser: true,
                        hashing: hashing)
    }

    /// A D-Bus caller whose bus gave a pidfd for it (`ProcessFD` in `GetConnectionCredentials`,
    /// taken at connect like SO_PEERPIDFD). The descriptor is duplicated; the caller keeps its own.
    package static func resolve(busProcessFD: Int32, userID uid: UInt32,
                                hashing: ExecutableHashing = .always) throws(CallerIdentityError) -> CallerIdentity {
        let descriptor = fcntl(busProcessFD, F_DUPFD_CLOEXEC, 0)
        guard descriptor >= 0 else { throw .pidfdUnavailable(errno) }
        guard let pid = PinnedProcess.processID(ofPidfd: descriptor) else {
            close(descriptor)
            throw .callerExited(processID: -1)
        }
        return try read(PinnedProcess(descriptor: descriptor, processID: pid), userID: uid, groupID: nil, checkUser: true, hashing: hashing)
    }

    private static func read(_ process: PinnedProcess, userID: UInt32, groupID: UInt32?, checkUser: Bool,
                             hashing: ExecutableHashing) throws(CallerIdentityError) -> CallerIdentity {
        let pid = process.processID
        let pinned = process.currentProcessID
        guard pinned != nil else { throw .callerExited(processID: pid) }
        guard pinned == pid else { throw .processMismatch(expected: pid, pinned: pinned) }

        let directory = open("/proc/\(pid)", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { throw .callerExited(processID: pid) }
        defer { close(directory) }

        let status: ProcessStatus
        switch BoundedFiles.read("status", in: directory, limit: ProcessStatus.largestFile) {
        case .success(let bytes):
            guard let parsed = ProcessStatus.parse(bytes) else { throw .processUnreadable(processID: pid, file: "status", errno: EPROTO) }
            status = parsed
        case .failure(.system(let code)):
            if code == ESRCH || code == ENOENT { throw .callerExited(processID: pid) }
            throw .processUnreadable(processID: pid, file: "status", errno: code)
        case .failure:
            throw .processUnreadable(processID: pid, file: "status", errno: EFBIG)
        }
        guard !status.isZombie else { throw .callerExited(processID: pid) }
        if checkUser && status.effectiveUserID != userID { throw .userMismatch(said: userID, found: status.effectiveUserID) }

        let flatpak: FlatpakApp?
        var sharesRoot = false
        do {
            if let root = try FlatpakApp.openRoot(processDirectory: directory, processID: pid) {
                defer { close(root) }
                sharesRoot = isOwnRoot(root)
                flatpak = try FlatpakApp.read(root: root)
            } else {
                flatpak = nil
            }
        } catch {
            if case .rootUnreadable(let code) = error {
                if code == ENOENT || code == ESRCH { throw .callerExited(processID: pid) }
                // EACCES: a process that is not dumpable, seen without CAP_SYS_PTRACE. Whether it
                // is sandboxed cannot be told, and a sandboxed app can make itself so; refused.
                throw .processUnreadable(processID: pid, file: "root", errno: code)
            }
            throw .invalidFlatpakInfo(processID: pid, error)
        }

        let cgroup: CgroupPlacement?
        if case .success(let bytes) = BoundedFiles.read("cgroup", in: directory, limit: CgroupPlacement.largestFile) {
            cgroup = CgroupPlacement.parse(bytes)
        } else {
            cgroup = nil
        }
        let label = securityLabel(processDirectory: directory)
        let unit = cgroup?.unit
        let snap = snapApp(label: label, cgroup: cgroup, unit: unit)
        // A sandboxed caller is judged by its app id alone: its executable is never hashed.
        let executable = ExecutableFile.executable(processDirectory: directory,
                                                   hashing: flatpak == nil && snap == nil ? hashing : .only([]))
        let script = sharesRoot && flatpak == nil && Interpreters.isInterpreter(path: executable?.path)
            ? InterpreterScript.script(processDirectory: directory) : nil

        // Last: was everything above read from the pinned process?
        guard process.isRunning else { throw .callerExited(processID: pid) }
        return CallerIdentity(
            process: process, userID: userID, groupID: groupID ?? status.effectiveGroupID,
            flatpak: flatpak, snap: snap, systemdUnit: unit, securityLabel: label, sharesRoot: sharesRoot,
            executable: executable, script: script
        )
    }

    /// AppArmor's label, from the per-LSM file where the kernel has one, else the shared one;
    /// nil without an LSM that labels processes (the file then fails with EINVAL).
    private static func securityLabel(processDirectory: Int32) -> String? {
        for name in ["attr/apparmor/current", "attr/current"] {
            guard case .success(let bytes) = BoundedFiles.read(name, in: processDirectory, limit: 4096) else { continue }
            var trimmed = bytes[...]
            while let last = trimmed.last, last == 0 || last == UInt8(ascii: "\n") { trimmed = trimmed.dropLast() }
            if let label = Text.validUTF8(trimmed), !label.isEmpty { return label }
        }
        return nil
    }

    private static func snapApp(label: String?, cgroup: CgroupPlacement?, unit: SystemdUnit?) -> SnapApp? {
        if let label, let instance = SnapApp.instance(inSecurityLabel: label) {
            return SnapApp(instanceName: instance, evidence: .securityLabel)
        }
        guard let instance = cgroup?.snapInstance else { return nil }
        return SnapApp(instanceName: instance, evidence: unit?.isSetByRoot == true ? .systemCgroup : .userCgroup)
    }

    private static func isOwnRoot(_ root: Int32) -> Bool {
        var theirs = stat(), ours = stat()
        guard fstat(root, &theirs) == 0, stat("/", &ours) == 0 else { return false }
        return theirs.st_dev == ours.st_dev && theirs.st_ino == ours.st_ino
    }
}
