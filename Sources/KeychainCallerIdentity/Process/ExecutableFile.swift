import Crypto
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A file a process runs: its executable, or the script an interpreter was started on.
///
/// The digest is of the file the process has open, read through `/proc/PID/exe` (or, for a
/// script, through the process's own root and working directory), never through a path that
/// could be made to point elsewhere between the check and the read.
package struct ExecutableFile: Sendable, Equatable {
    /// Its path as the kernel gives it, nil when that is not UTF-8. For `/proc/PID/exe`, a file
    /// deleted or replaced since the process started ends in " (deleted)".
    package let path: String?
    /// SHA-256 of its contents, lower-case hexadecimal; nil when it could not be read whole
    /// (not dumpable, too large, gone).
    package let sha256: String?

    /// The largest file hashed; a bigger one has no digest, and so matches no rule that needs one.
    package static let largestHashedFile = 512 * 1024 * 1024

    /// The executable of the process whose /proc directory is `processDirectory`; nil when the
    /// kernel does not show it (another user's or a non-dumpable process, a kernel thread). Its
    /// contents are hashed only when `hashing` asks for its path.
    static func executable(processDirectory: Int32, hashing: ExecutableHashing) -> ExecutableFile? {
        let path = BoundedFiles.linkTarget("exe", in: processDirectory).flatMap(Text.validUTF8)
        guard hashing.hashes(path) else { return path.map { ExecutableFile(path: $0, sha256: nil) } }
        let digest: String?
        switch BoundedFiles.open("exe", in: processDirectory, flags: O_RDONLY) {
        case .success(let descriptor):
            defer { close(descriptor) }
            digest = sha256(of: descriptor)
        case .failure:
            digest = nil
        }
        if path == nil && digest == nil { return nil }
        return ExecutableFile(path: path, sha256: digest)
    }

    /// SHA-256 of a regular file's contents, read from `descriptor`.
    static func sha256(of descriptor: Int32) -> String? {
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_size <= largestHashedFile else { return nil }
        var hasher = SHA256()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var total = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if count == 0 { break }
            total += count
            guard total <= largestHashedFile else { return nil }
            buffer.withUnsafeBytes { hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: $0[..<count])) }
        }
        return hexadecimal(hasher.finalize())
    }

    static func hexadecimal(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

/// Which callers' executables a resolution hashes. Hashing reads the whole file (tens of
/// milliseconds for a large program: most of what resolving a new connection costs), and only
/// a rule that pins an executable's SHA-256 looks at the digest; so a door hashes only the
/// executables its rules pin (``AccessPolicy/executableHashing``).
package enum ExecutableHashing: Sendable, Equatable {
    case always
    /// Only an executable at one of these paths (as the kernel gives `/proc/PID/exe`).
    case only(Set<String>)

    func hashes(_ path: String?) -> Bool {
        switch self {
        case .always: return true
        case .only(let paths): return path.map(paths.contains) ?? false
        }
    }
}
