#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Whether a file can be named by its path alone: only root can change what that path holds.
enum TrustedPath {
    /// Why a path is not root's alone, or nil when it is: the file and every directory from `/`
    /// down to it are owned by root and writable by no group and no one else. (A world-writable
    /// directory with the sticky bit, such as /tmp, does not count: keep it simple to check.)
    static func problem(withPath path: String) -> String? {
        guard path.hasPrefix("/") else { return "\(path) is not an absolute path" }
        var prefix = ""
        var checked = ["/"]
        for component in path.split(separator: "/") {
            prefix += "/" + component
            checked.append(prefix)
        }
        for candidate in checked {
            var status = stat()
            guard lstat(candidate, &status) == 0 else { return "\(candidate) cannot be examined (errno \(errno))" }
            if (status.st_mode & S_IFMT) == S_IFLNK { return "\(candidate) is a symbolic link" }
            if status.st_uid != 0 { return "\(candidate) is owned by user \(status.st_uid), not root" }
            if status.st_mode & (S_IWGRP | S_IWOTH) != 0 { return "\(candidate) is writable by its group or by others" }
        }
        return nil
    }
}
