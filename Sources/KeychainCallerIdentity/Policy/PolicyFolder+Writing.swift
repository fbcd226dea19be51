#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Putting rule files in place and taking them away, for `keychainctl grant-access` and
/// `revoke-access`, with the modes ``PolicyFolder`` accepts: folders it creates are 0700 for a
/// user's folder and 0755 for root's, files 0600 and 0644. A file is written under a name the
/// loader skips (it starts with a dot) and renamed over its final name, so keychaind reads
/// either the old rule or the new one, never half of one.
extension PolicyFolder {
    /// The mode of the folders created on the way to this one.
    var folderMode: mode_t { owner == .root ? 0o755 : 0o700 }
    /// The mode of a rule file.
    var fileMode: mode_t { owner == .root ? 0o644 : 0o600 }

    /// Whether the folder has an entry `name` (a file, a link, anything).
    package func holdsFile(_ name: String) -> Bool {
        var status = stat()
        return lstat(path + "/" + name, &status) == 0
    }

    /// Writes `text` as the file `name`, replacing what it held, atomically; creates the folder
    /// (and the folders above it) when missing.
    package func write(_ text: String, as name: String) throws(PolicyProblem) {
        let target = path + "/" + name
        try createFolders()
        let folder = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { throw failure(target, "the folder cannot be opened") }
        defer { close(folder) }
        var random = SystemRandomNumberGenerator()
        let temporary = ".\(name).\(String(random.next() as UInt64, radix: 36))"
        let descriptor = openat(folder, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, fileMode)
        guard descriptor >= 0 else { throw failure(target, "cannot be written") }
        var written = false
        defer { if !written { unlinkat(folder, temporary, 0) } }
        do {
            defer { close(descriptor) }
            // The umask may have taken bits away; the loader needs none added.
            guard fchmod(descriptor, fileMode) == 0 else { throw failure(target, "cannot be given mode \(String(fileMode, radix: 8))") }
            var bytes = Array(text.utf8)[...]
            while !bytes.isEmpty {
                let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { throw failure(target, "cannot be written") }
                bytes = bytes.dropFirst(count)
            }
            guard fsync(descriptor) == 0 else { throw failure(target, "cannot be written to the disk") }
        }
        guard renameat(folder, temporary, folder, name) == 0 else { throw failure(target, "cannot be put in place") }
        written = true
        fsync(folder)
    }

    /// Removes the file `name` of the folder.
    package func remove(_ name: String) throws(PolicyProblem) {
        let target = path + "/" + name
        guard unlink(target) == 0 else { throw failure(target, "cannot be removed") }
        let folder = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
    }

    /// Creates the folder and every missing one above it, each with ``folderMode`` whatever the
    /// umask. Folders that exist are left as they are: the loader judges them.
    private func createFolders() throws(PolicyProblem) {
        var prefix = ""
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, folderMode) == 0 {
                guard chmod(prefix, folderMode) == 0 else { throw failure(prefix, "cannot be given mode \(String(folderMode, radix: 8))") }
            } else if errno != EEXIST {
                throw failure(prefix, "cannot be created")
            }
        }
    }

    private func failure(_ file: String, _ what: String) -> PolicyProblem {
        let code = errno
        var reason = "\(what) (\(String(cString: strerror(code))))"
        if owner == .root && (code == EACCES || code == EPERM) { reason += "; the system folder is root's: run this as root" }
        return PolicyProblem(file: file, reason: reason)
    }
}
