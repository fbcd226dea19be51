import KeychainLocking
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Digests of executables already hashed, so that a caller connecting again (or a thousand
/// connections of one program) does not have its executable read whole each time.
///
/// A digest is reused only for the same file in the same state: device, inode, size, and the
/// modification and change times to the nanosecond. Writing to a file moves its change time,
/// and no one but the kernel sets that time. Where the file system counts time coarsely, a write
/// within the same tick as the stat would leave the times as they were, so a file changed less
/// than ``settlingSeconds`` before it was hashed is not remembered at all.
final class DigestCache: Sendable {
    struct FileVersion: Hashable, Sendable {
        let device: UInt64
        let inode: UInt64
        let size: Int64
        let modified: [Int]
        let changed: [Int]

        init(_ status: stat) {
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
            size = Int64(status.st_size)
            modified = [status.st_mtim.tv_sec, status.st_mtim.tv_nsec]
            changed = [status.st_ctim.tv_sec, status.st_ctim.tv_nsec]
        }
    }

    static let shared = DigestCache()
    /// More files than this and the cache starts again: a bound on memory, not a tuning knob.
    static let mostFiles = 256
    static let settlingSeconds = 2

    private let digests = Locked<[FileVersion: String]>([:])

    func digest(of version: FileVersion) -> String? { digests.withLock { $0[version] } }

    func remember(_ digest: String, of version: FileVersion, changedAt changed: timespec) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        guard now.tv_sec - changed.tv_sec >= Self.settlingSeconds else { return }
        digests.withLock { digests in
            if digests.count >= Self.mostFiles { digests.removeAll() }
            digests[version] = digest
        }
    }
}
