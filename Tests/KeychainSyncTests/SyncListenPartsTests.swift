#if Sync  // built only with the Sync trait (Package.swift)
import Foundation
@testable import KeychainSync
import KeychainStore
import Testing

/// The parts of continuous sync that need no server: the inotify watcher on a real folder and
/// the mailbox that folds wake-ups together.
@Suite("Sync: continuous sync's parts")
struct SyncListenPartsTests {
    /// Counts calls, from any thread.
    final class Counter: Sendable {
        private let count = Locked(0)
        func bump() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }

    func waitUntil(_ condition: () -> Bool) async throws -> Bool {
        for _ in 0..<500 {
            if condition() { return true }
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        return condition()
    }

    @Test("The watcher reports writes to the keychain and its WAL, and ignores the sync state file and other files")
    func watcherSeesKeychainWrites() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kc-watch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let keychain = folder.appendingPathComponent("login.keychain-db")
        let counter = Counter()
        let watcher = try #require(LocalChangeWatcher(keychain: keychain) { counter.bump() })
        defer { watcher.stop() }

        // Files that are not the keychain's: no call, not even after the trailing pauses.
        try Data("state".utf8).write(to: URL(fileURLWithPath: keychain.path + ".sync"))
        try Data("other".utf8).write(to: folder.appendingPathComponent("other.keychain-db-wal"))
        try await Task.sleep(nanoseconds: 800_000_000)
        #expect(counter.value == 0)

        // The WAL: a call at once (one per read of events: creating, writing and closing the
        // file may come apart), then the two trailing ones, then silence.
        try Data("frame".utf8).write(to: URL(fileURLWithPath: keychain.path + "-wal"))
        #expect(try await waitUntil { counter.value >= 1 })
        #expect(try await waitUntil { counter.value >= 3 })
        try await Task.sleep(nanoseconds: 800_000_000)
        let settled = counter.value
        try await Task.sleep(nanoseconds: 800_000_000)
        #expect(counter.value == settled, "trailing calls must stop after the burst")

        // The keychain file itself.
        try Data("page".utf8).write(to: keychain)
        #expect(try await waitUntil { counter.value > settled })
    }

    @Test("The event parser finds a watched name among several events and none in unrelated ones")
    func parser() {
        func event(_ name: String, padded: Int) -> [UInt8] {
            var bytes = [UInt8](repeating: 0, count: 16)
            let length = UInt32(padded)
            withUnsafeBytes(of: length.littleEndian) { bytes.replaceSubrange(12..<16, with: $0) }
            var nameBytes = Array(name.utf8)
            nameBytes += [UInt8](repeating: 0, count: padded - nameBytes.count)
            return bytes + nameBytes
        }
        let watched: Set<String> = ["login.keychain-db", "login.keychain-db-wal"]
        let unrelated = event("login.keychain-db.sync", padded: 32) + event("notes.txt", padded: 16)
        #expect(!LocalChangeWatcher.touchesWatched(unrelated[...], watched: watched))
        #expect(LocalChangeWatcher.touchesWatched((unrelated + event("login.keychain-db-wal", padded: 32))[...], watched: watched))
        // A truncated buffer is not read past its end.
        #expect(!LocalChangeWatcher.touchesWatched(Array(event("login.keychain-db", padded: 32).prefix(20))[...], watched: watched))
    }

    @Test("Wake-ups raised while the loop is busy fold into one; cancelling a waiting loop wakes it with stop")
    func wakeups() async throws {
        let wakeups = SyncWakeups()
        wakeups.raise(.remote)
        wakeups.raise(.local)
        wakeups.raise(.remote)
        #expect(await wakeups.next() == [.remote, .local])
        wakeups.raise(.lost)
        wakeups.discard(.lost)
        wakeups.raise(.tick)
        #expect(await wakeups.next() == .tick)

        let waiting = Task { await wakeups.next() }
        try await Task.sleep(nanoseconds: 100_000_000)
        waiting.cancel()
        #expect(await waiting.value.contains(.stop))
    }
}
#endif
