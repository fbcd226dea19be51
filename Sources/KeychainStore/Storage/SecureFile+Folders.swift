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

/// Checks of the folders that hold key material and keychain files.
///
/// A private file is only as private as its folder: whoever can write the folder can rename the
/// keychain away, put an older copy in its place, or plant a link where SQLite will create its
/// WAL next. So the folder that holds the file must belong to this user and be writable by
/// nobody else; a sticky bit does not help there, since the attacker's own files in it are
/// still theirs to swap. The folders above it must belong to this user or to root, and must not
/// be writable by everyone unless sticky (as `/tmp` is), where nobody can rename another's
/// folder. Group-writable folders above are accepted: with per-user groups (umask 002) the
/// home's subfolders often are, and the last folder's check still catches a swapped folder.
extension SecureFile {
    /// Refuses, with `errSecNotAvailable` (-25291), a folder that would let another user
    /// replace or redirect the file at `path`. A folder that does not exist yet is fine: it will
    /// be created with mode 0700, so its nearest existing ancestor is checked as an ancestor.
    static func checkFolders(containing path: String) throws(KeychainStoreError) {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        try checkFolder(folder)
    }

    /// As ``checkFolders(containing:)``, for `folder` itself as the one that holds the files.
    static func checkFolder(_ folder: URL) throws(KeychainStoreError) {
        var missing = folder.standardizedFileURL.path
        var holdsTheFile = true
        // Walk up to the first folder that exists; the missing ones will be ours.
        while !exists(missing) {
            let parent = PlainText.deletingLastPathComponent(missing)
            guard parent != missing, !parent.isEmpty else { return }
            missing = parent
            holdsTheFile = false
        }
        guard let resolved = realPath(missing) else {
            throw .io("cannot inspect '\(missing)': \(String(cString: strerror(errno)))")
        }
        var current = resolved
        while true {
            try checkOne(current, holdsTheFile: holdsTheFile)
            holdsTheFile = false
            let parent = PlainText.deletingLastPathComponent(current)
            if parent == current || parent.isEmpty { return }
            current = parent
        }
    }

    private static func checkOne(_ path: String, holdsTheFile: Bool) throws(KeychainStoreError) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw .io("cannot inspect '\(path)': \(String(cString: strerror(errno)))")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw .io("'\(path)' is not a directory") }
        let mode = String(info.st_mode & 0o7777, radix: 8)
        let user = geteuid()
        if holdsTheFile {
            guard info.st_uid == user else {
                throw .notAvailable("the folder '\(path)' belongs to another user (uid \(info.st_uid)); keychain files and keys must be in a folder of your own")
            }
            guard info.st_mode & 0o022 == 0 else {
                throw .notAvailable("the folder '\(path)' can be changed by other users (mode \(mode)), who could replace the files in it; run `chmod 700 '\(path)'` or choose another folder")
            }
        } else {
            guard info.st_uid == user || info.st_uid == 0 else {
                throw .notAvailable("the folder '\(path)' above the keychain belongs to another user (uid \(info.st_uid)), who could replace what is below it; choose a folder under your home")
            }
            guard info.st_mode & 0o002 == 0 || info.st_mode & S_ISVTX != 0 else {
                throw .notAvailable("the folder '\(path)' above the keychain can be changed by every user (mode \(mode)); run `chmod o-w '\(path)'` or choose another folder")
            }
        }
    }

    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
