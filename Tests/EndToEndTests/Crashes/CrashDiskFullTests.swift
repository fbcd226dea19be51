import Foundation
import KeychainTestSupport
import KeychainStore
import Testing

/// A full disk for real: a worker adds 64 KiB items until the kernel refuses a write — through a
/// file-size limit (`RLIMIT_FSIZE`, unprivileged: write(2) fails with EFBIG) and, where a private
/// mount namespace can be made, on a 6 MiB tmpfs (ENOSPC). The limit is met both while appending
/// to the WAL and while checkpointing the WAL into the file. The add that failed surfaces as a
/// status; every add acknowledged before it is intact; the file is never truncated or corrupted.
@Suite("A full disk never loses, truncates or corrupts the keychain")
struct CrashDiskFullTests {
    static let secretKiB = 64

    /// The secret the worker stores for `index` (the same generator as the worker's).
    static func secret(_ index: Int) -> Data {
        var state = UInt64(index) &* 0x9E37_79B9_7F4A_7C15 | 1
        return Data((0..<secretKiB * 1024).map { _ in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return UInt8(truncatingIfNeeded: state)
        })
    }

    /// Whether this machine lets us mount a tmpfs in a private mount namespace (root, or a
    /// container that allows it).
    static let canMountTmpfs: Bool = {
        guard let unshare = try? ProofSupport.tool("unshare") else { return false }
        let outcome = try? ProofSupport.run(unshare, ["-m", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt"],
                                            environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"])
        return outcome?.status == 0
    }()

    /// A keychain with one small item, and its file bytes before the filling began.
    struct Setup {
        let worker: CrashWorker
        let before: Data

        init() throws {
            worker = try CrashWorker(prefix: "disk-full")
            do {
                let file = try worker.open(create: true)
                _ = try file.add(.genericPassword, attributes: ["acct": .string("before"), "pdmn": .string("dk")],
                                 secret: Data("stored before the disk filled".utf8), identity: .unconfigured)
            }
            before = try Data(contentsOf: worker.keychain)
        }
    }

    /// Checks the worker's report and the keychain it left.
    static func verify(_ setup: Setup, lines: [String], exitStatus: Int32, fullStatuses: Set<Int32>) throws {
        #expect(exitStatus == 0, "\(lines.suffix(5))")
        let acknowledged = lines.filter { $0.hasPrefix("ack ") }.count
        let full = try #require(lines.first { $0.hasPrefix("full ") }, "the disk never filled: \(lines.suffix(3))")
        let parts = full.split(separator: " ")
        #expect(Int(parts[1]) == acknowledged)
        let status = try #require(Int32(parts[2]))
        #expect(fullStatuses.contains(status), "a full disk surfaced as \(status)")
        #expect(acknowledged > 20, "the disk filled too early to exercise a checkpoint")
        // While full, the keychain still reads.
        #expect(lines.contains("read 0 intact"), "\(lines.suffix(4))")
        let updated = lines.contains("update 0")
        let deleted = lines.contains("delete 0")

        let file = try setup.worker.open()
        #expect(try file.integrityCheck())
        let current = try Data(contentsOf: setup.worker.keychain)
        #expect(current.count >= setup.before.count, "the file shrank")
        #expect(current.prefix(16) == setup.before.prefix(16))
        let found = try file.find(ItemQuery(itemClass: .genericPassword), identity: .unconfigured, limit: nil, includeSecrets: true)
        var byAccount: [String: StoredItem] = [:]
        for item in found { byAccount[item.attributes["acct"]?.stringValue ?? ""] = item }
        #expect(byAccount["before"]?.secret == Data("stored before the disk filled".utf8))
        for index in 0..<acknowledged {
            let account = "fill-\(index)"
            if index == 1 && deleted {
                #expect(byAccount[account] == nil)
                continue
            }
            #expect(byAccount[account]?.secret == secret(index), "\(account) was lost or changed")
        }
        #expect(byAccount["fill-\(acknowledged)"] == nil, "the add that failed is stored")
        #expect((byAccount["fill-0"]?.attributes["labl"] == .string("relabelled")) == updated)
        // With space again, the keychain takes writes and checkpoints cleanly.
        _ = try file.add(.genericPassword, attributes: ["acct": .string("after"), "pdmn": .string("dk")],
                         secret: Data("after".utf8), identity: .unconfigured)
    }

    @Test("Past a file-size limit an add fails with errSecIO or errSecNotAvailable; nothing acknowledged is lost and the file stays sound")
    func fileSizeLimit() throws {
        let setup = try Setup()
        defer { setup.worker.remove() }
        // 4.5 MiB: the WAL reaches SQLite's 1000-page checkpoint once (the file grows to ~4 MiB),
        // then the next checkpoint and the WAL itself both meet the limit.
        let output = setup.worker.directory.appendingPathComponent("fill.out")
        let process = try setup.worker.start("fill", [String(4_718_592), String(Self.secretKiB)], output: output)
        let exit = process.waitForExit()
        // EFBIG is an I/O error to SQLite (SQLITE_IOERR_WRITE); a write cut short at the limit is
        // SQLITE_FULL, which Apple reports as errSecNotAvailable.
        try Self.verify(setup, lines: CrashWorker.lines(output), exitStatus: exit.terminationStatus, fullStatuses: [SecStatus.io, SecStatus.notAvailable])
        try #require(try setup.worker.open().integrityCheck())
    }

    @Test("On a full tmpfs (ENOSPC) an add fails with errSecNotAvailable; nothing acknowledged is lost and the file stays sound",
          .enabled(if: canMountTmpfs, "needs a private mount namespace with tmpfs (root)"))
    func fullTmpfs() throws {
        let setup = try Setup()
        defer { setup.worker.remove() }
        let mountPoint = setup.worker.directory.appendingPathComponent("tmpfs")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        let output = setup.worker.directory.appendingPathComponent("fill.out")
        let name = setup.worker.keychain.lastPathComponent
        // The keychain is copied onto the small file system, filled there, and copied back (file
        // and WAL) for checking; the mount vanishes with the namespace.
        let script = """
            mount -t tmpfs -o size=6m,mode=0700 tmpfs "$1" || exit 90
            cp -p "$2/\(name)" "$1/" || exit 91
            "$3" fill "$1/\(name)" none \(Self.secretKiB) > "$4" 2>&1
            status=$?
            rm -f "$2/\(name)-wal" "$2/\(name)-shm"
            cp -p "$1/\(name)" "$2/" && { [ ! -e "$1/\(name)-wal" ] || cp -p "$1/\(name)-wal" "$2/"; } || exit 92
            exit $status
            """
        var environment = setup.worker.environment
        environment["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let outcome = try ProofSupport.run(try ProofSupport.tool("unshare"),
                                           ["-m", "sh", "-c", script, "fill", mountPoint.path, setup.worker.directory.path,
                                            try CrashWorker.executable().path, output.path],
                                           environment: environment)
        #expect(outcome.stderr.isEmpty, "\(outcome.stderr)")
        try Self.verify(setup, lines: CrashWorker.lines(output), exitStatus: outcome.status, fullStatuses: [SecStatus.notAvailable])
    }
}
