#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Why a file of another process could not be read.
enum FileReadFailure: Error, Equatable {
    /// The system call failed with this errno (ENOENT, EACCES, ESRCH, ELOOP, ...).
    case system(Int32)
    /// It holds more than the bound its caller set.
    case tooLarge
    /// It is not a regular file (a directory, a FIFO, a device).
    case notRegular
}

/// Bounded reads of files relative to a directory descriptor: /proc, a sandbox's root, a policy folder.
///
/// Everything here is bounded because the other end chooses what it holds: a /proc file can be
/// large (a cmdline of megabytes), and a file in a sandbox's root is whatever its owner wrote.
enum BoundedFiles {
    /// Opens `name` below `directory` with `flags` (close-on-exec and no controlling terminal
    /// are always added).
    static func open(_ name: String, in directory: Int32, flags: Int32) -> Result<Int32, FileReadFailure> {
        let descriptor = openat(directory, name, flags | O_CLOEXEC | O_NOCTTY)
        return descriptor >= 0 ? .success(descriptor) : .failure(.system(errno))
    }

    /// The contents of `name` below `directory`, at most `limit` bytes. /proc files report a size
    /// of 0, so the bound is enforced while reading: one byte more than `limit` is a failure.
    static func read(_ name: String, in directory: Int32, limit: Int, flags: Int32 = 0) -> Result<[UInt8], FileReadFailure> {
        switch open(name, in: directory, flags: O_RDONLY | O_NONBLOCK | flags) {
        case .failure(let failure): return .failure(failure)
        case .success(let descriptor):
            defer { close(descriptor) }
            return readAll(descriptor, limit: limit, requireRegular: false)
        }
    }

    /// Everything `descriptor` holds, at most `limit` bytes; with `requireRegular`, only from a
    /// regular file (checked on the descriptor, so the file cannot be swapped after the check).
    static func readAll(_ descriptor: Int32, limit: Int, requireRegular: Bool) -> Result<[UInt8], FileReadFailure> {
        if requireRegular {
            var status = stat()
            guard fstat(descriptor, &status) == 0 else { return .failure(.system(errno)) }
            guard (status.st_mode & S_IFMT) == S_IFREG else { return .failure(.notRegular) }
            guard status.st_size <= limit else { return .failure(.tooLarge) }
        }
        var contents: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(.system(errno))
            }
            if count == 0 { return .success(contents) }
            contents += chunk[..<count]
            if contents.count > limit { return .failure(.tooLarge) }
        }
    }

    /// The target of the symbolic link `name` below `directory` (for /proc: `exe`, `cwd`), as
    /// bytes; nil when it cannot be read or does not fit in PATH_MAX.
    static func linkTarget(_ name: String, in directory: Int32) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX))
        let count = buffer.withUnsafeMutableBytes { bytes in
            readlinkat(directory, name, bytes.baseAddress!.assumingMemoryBound(to: CChar.self), bytes.count)
        }
        // A result that fills the buffer may have been cut short.
        guard count > 0, count < buffer.count else { return nil }
        return Array(buffer[..<count])
    }

    /// The path the kernel gives for an open descriptor (`/proc/self/fd/N`), in this process's view.
    static func path(of descriptor: Int32) -> String? {
        let fdDirectory = Glibc.open("/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fdDirectory >= 0 else { return nil }
        defer { close(fdDirectory) }
        return linkTarget(String(descriptor), in: fdDirectory).flatMap(Text.validUTF8)
    }
}

/// Text read from another process: valid UTF-8 or nothing.
enum Text {
    static func validUTF8<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String? {
        String(validating: bytes, as: UTF8.self)
    }
}
