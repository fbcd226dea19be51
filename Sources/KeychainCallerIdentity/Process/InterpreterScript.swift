#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The script an interpreter runs, from its command line (`/proc/PID/cmdline`).
///
/// Only the plainest form is read: `interpreter SCRIPT ...` or `interpreter -- SCRIPT ...`. An
/// option before the script may take a value (`python3 -W x evil.py`, where `x` is no script)
/// or be code itself (`-c`, `-e`), and the options differ from one interpreter to the next, so
/// any option there means "no script known": no rule that names a script can match, which is
/// the safe way to be wrong.
enum InterpreterScript {
    /// The most of a command line read; only its first arguments are needed.
    static let largestCommandLine = 64 * 1024

    /// The script argument of a command line (NUL-separated, as the kernel gives it), or nil.
    static func scriptArgument(commandLine bytes: [UInt8]) -> [UInt8]? {
        // Each argument ends in NUL; a last piece without one was cut by the bound.
        var arguments = bytes.split(separator: 0, omittingEmptySubsequences: false).map(Array.init)
        // After a final NUL the split leaves an empty piece; without one, the cut piece: drop either.
        if !arguments.isEmpty { arguments.removeLast() }
        guard arguments.count >= 2 else { return nil }
        var candidate = arguments[1]
        if candidate == Array("--".utf8) {
            guard arguments.count >= 3 else { return nil }
            candidate = arguments[2]
        }
        guard let first = candidate.first, first != UInt8(ascii: "-") else { return nil }
        return candidate
    }

    /// The script of the process whose /proc directory is `processDirectory`, opened through its
    /// own root (an absolute argument) or working directory (a relative one): its path in this
    /// process's view, and its digest. Only for a process that shares this process's root, since
    /// a symbolic link inside the path is resolved from this process's root, not the other's.
    static func script(processDirectory: Int32) -> ExecutableFile? {
        guard case .success(let commandLine) = BoundedFiles.read("cmdline", in: processDirectory, limit: largestCommandLine),
              let argument = scriptArgument(commandLine: commandLine), let text = Text.validUTF8(argument) else { return nil }
        let name = text.hasPrefix("/") ? "root" + text : "cwd/" + text
        guard case .success(let descriptor) = BoundedFiles.open(name, in: processDirectory, flags: O_RDONLY | O_NONBLOCK) else { return nil }
        defer { close(descriptor) }
        guard let digest = ExecutableFile.sha256(of: descriptor) else { return nil }
        return ExecutableFile(path: BoundedFiles.path(of: descriptor), sha256: digest)
    }
}
