#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// File operations for key material and keychain files: private modes, no symlinks, never
/// overwriting what exists.
package enum SecureFile {
    enum CreateResult { case created, alreadyExists }

    /// Makes `directory` (and missing parents); the last component gets mode 0700.
    ///
    /// With `checked` (the default), an existing `directory` must pass ``checkFolder(_:)``, and
    /// so must the folders above one that is about to be created; nothing is created when they
    /// do not. An existing folder owned by this user that others may only read or enter (0755)
    /// is accepted as it is: it is the user's to choose, and the files in it are 0600.
    static func makePrivateDirectory(_ directory: URL, checked: Bool = true) throws(KeychainStoreError) {
        let path = directory.path
        if checked { try checkFolder(directory) }
        var info = stat()
        if lstat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFDIR else { throw .io("'\(path)' is not a directory") }
            return
        }
        do {
            try FileManager.default.createDirectory(at: directory.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw .io("cannot create the folder '\(directory.deletingLastPathComponent().path)'")
        }
        if mkdir(path, 0o700) == 0 {
            // Ours: 0700 whatever the umask left of it.
            chmod(path, 0o700)
        } else if errno == EEXIST {
            // Another process made it meanwhile: it gets the same scrutiny as any existing one.
            if checked { try checkFolder(directory) }
        } else {
            throw .io("cannot create the folder '\(path)': \(String(cString: strerror(errno)))")
        }
    }

    /// Checks that `path` is a regular file (not a symlink), owned by this user, not readable or
    /// writable by group or others, in a folder that passes ``checkFolders(containing:)``.
    /// Returns false when it does not exist.
    static func checkPrivateFile(_ path: String) throws(KeychainStoreError) -> Bool {
        try checkFolders(containing: path)
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { return false }
            throw .io("cannot inspect '\(path)': \(String(cString: strerror(errno)))")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw .notAvailable("'\(path)' is not a regular file (symbolic links are refused)")
        }
        guard info.st_uid == geteuid() else {
            throw .notAvailable("'\(path)' belongs to another user")
        }
        guard info.st_mode & 0o077 == 0 else {
            throw .notAvailable("'\(path)' is readable or writable by other users; make it mode 0600")
        }
        return true
    }

    /// Reads a small private file, or nil when it does not exist.
    static func read(_ url: URL) throws(KeychainStoreError) -> Data? {
        guard try checkPrivateFile(url.path) else { return nil }
        let fd = open(url.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw .io("cannot open '\(url.path)': \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = readBytes(fd, &buffer)
        guard count >= 0 else { throw .io("cannot read '\(url.path)'") }
        return Data(buffer[0..<count])
    }

    /// Creates `url` with mode 0600 holding `contents`, durably, failing if it already exists.
    ///
    /// The bytes go to a temporary name first and are linked into place only once written and
    /// synced, so nobody ever sees a partial file, and a failure (full disk, I/O error) leaves
    /// nothing behind. A full disk is `errSecDiskFull` (-34), another write failure `errSecIO` (-36).
    /// `checkingFolder: false` skips the folder checks, for files that protect themselves
    /// (backups are sealed, and an existing file is never replaced).
    static func createExclusively(_ url: URL, contents: Data, checkingFolder: Bool = true) throws(KeychainStoreError) -> CreateResult {
        try makePrivateDirectory(url.deletingLastPathComponent(), checked: checkingFolder)
        let temporary = url.path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw .io("cannot create '\(temporary)': \(String(cString: strerror(errno)))") }
        defer { unlink(temporary) }
        do {
            defer { close(fd) }
            try writeAll(fd, contents, path: url.path)
            try sync(fd, path: url.path)
        }
        if link(temporary, url.path) != 0 {
            if errno == EEXIST { return .alreadyExists }
            throw .io("cannot create '\(url.path)': \(String(cString: strerror(errno)))")
        }
        syncDirectory(url.deletingLastPathComponent())
        return .created
    }

    /// Writes all of `contents`, carrying on after short writes (which write(2) may legally make)
    /// and interruptions.
    static func writeAll(_ fd: Int32, _ contents: Data, path: String) throws(KeychainStoreError) {
        var offset = 0
        while offset < contents.count {
            var wanted = contents.count - offset
            var written: Int
            #if DEBUG
            let injected = FaultInjection.fault(.fileWrite)
            if let injected, injected >= 0 { wanted = min(wanted, Int(injected)) }
            if let injected, injected < 0 {
                written = -1
                errno = -injected
            } else {
                written = contents.withUnsafeBytes { write(fd, $0.baseAddress! + offset, wanted) }
            }
            #else
            written = contents.withUnsafeBytes { write(fd, $0.baseAddress! + offset, wanted) }
            #endif
            if written < 0 {
                if errno == EINTR { continue }
                throw writeError(errno, path: path)
            }
            offset += written
        }
    }

    private static func sync(_ fd: Int32, path: String) throws(KeychainStoreError) {
        var result = Int32(0)
        #if DEBUG
        if let injected = FaultInjection.fault(.fileSync) {
            result = -1
            errno = injected
        }
        #endif
        if result == 0 { result = fsync(fd) }
        guard result == 0 else { throw writeError(errno, path: path) }
    }

    private static func writeError(_ code: Int32, path: String) -> KeychainStoreError {
        let reason = "cannot write '\(path)': \(String(cString: strerror(code)))"
        switch code {
        case ENOSPC, EDQUOT, EFBIG: return .init(status: SecStatus.diskFull, reason: reason)
        default: return .io(reason)
        }
    }

    /// Creates an empty private file for SQLite to open, unless one exists.
    package static func createEmptyPrivateFile(_ path: String) throws(KeychainStoreError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if fd < 0 {
            if errno == EEXIST { return }
            throw .io("cannot create '\(path)': \(String(cString: strerror(errno)))")
        }
        close(fd)
    }

    /// Flushes a file to the disk.
    static func syncFile(_ path: String) throws(KeychainStoreError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw .io("cannot open '\(path)': \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        try sync(fd, path: path)
    }

    static func syncDirectory(_ directory: URL) {
        let fd = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }
}

/// read(2), named apart because inside `SecureFile` the name `read` is its own method.
private func readBytes(_ fd: Int32, _ buffer: inout [UInt8]) -> Int {
    read(fd, &buffer, buffer.count)
}
