import Foundation
import KeychainServices
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where `export` writes a backup: never over an existing file unless asked, and never a
/// partial file, whichever way it ends.
enum BackupDestination {
    /// The status for "the output file already exists". Apple's Security framework has no
    /// errSec code for an existing file; this is Mac OS's own one (`dupFNErr`, from the same
    /// family as errSecIO -36 and errSecDiskFull -34), so that it is told apart from a failed
    /// write (errSecIO) and from an existing keychain item or keychain. It exits 208.
    static let fileExistsStatus: OSStatus = -48

    /// Fails with ``fileExistsStatus`` when `url` exists (a dangling symbolic link counts).
    static func refuseExisting(_ url: URL, context: String) throws(CommandFailure) {
        var status = stat()
        guard lstat(url.path, &status) == 0 else { return }
        throw CommandFailure(status: fileExistsStatus, context: context,
                             message: "\(url.path) already exists; it was left as it is.",
                             hint: "Choose another file, or give --force to replace it.")
    }

    /// Runs `write`, which creates a new file at the URL it is given and never replaces one.
    /// Without `replacing`, that is `url` itself, so a file that appeared since the check is
    /// refused too. With it, the backup is written to a fresh name in the same folder and renamed
    /// over `url` only once complete, so `url` holds either the old file or the whole new one.
    static func write<T>(to url: URL, replacing: Bool, context: String,
                         _ write: (URL) throws(CommandFailure) -> T) throws(CommandFailure) -> T {
        guard replacing else {
            do {
                return try write(url)
            } catch where error.status == errSecIO && FileManager.default.fileExists(atPath: url.path) {
                try refuseExisting(url, context: context)
                throw error
            }
        }
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).export-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        let result: T
        do {
            result = try write(temporary)
        } catch {
            unlink(temporary.path)
            throw error
        }
        guard rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary.path)
            throw CommandFailure(status: errSecIO, context: context,
                                 message: "\(url.path) could not be replaced (\(reason)); it was left as it is.",
                                 hint: "Check that the folder is writable and that \(url.path) is not a folder.")
        }
        return result
    }
}
