#if Sync  // built only with the Sync trait (Package.swift)
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Tells a syncing process, within milliseconds, that its keychain file may have been written by
/// another process (a `SecItem*` call in an application, keychaind, keychainctl).
///
/// It watches the keychain's folder with inotify for writes to the keychain file and its
/// write-ahead log: no wake-up while nothing happens, and no polling delay. inotify only says
/// that bytes moved, not that a transaction committed, and the WAL's last frame is written
/// before the commit becomes visible (the writer still has to fsync and publish it), so the
/// engine decides by SQLite's `data_version` (``KeychainChangeStamp``), and the watcher calls
/// again 50 ms and 500 ms after a burst of writes ends, which catches a commit published late.
/// The engine's own writes also show up here; `data_version` does not move for them, so they
/// cost a counter read each.
final class LocalChangeWatcher: Sendable {
    private let inotify: Int32
    private let stopPipe: (read: Int32, write: Int32)

    /// Starts watching; nil where inotify is not available (the engine's periodic check then
    /// finds local changes, later).
    init?(keychain: URL, onChange: @escaping @Sendable () -> Void) {
        let descriptor = inotify_init1(Int32(IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        let folder = keychain.deletingLastPathComponent().path
        let mask = UInt32(IN_MODIFY) | UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_CREATE)
        guard inotify_add_watch(descriptor, folder, mask) >= 0 else {
            close(descriptor)
            return nil
        }
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else {
            close(descriptor)
            return nil
        }
        // Not inherited by programs this process starts (pipe2 is not visible from Swift's Glibc).
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        inotify = descriptor
        stopPipe = (pipeEnds[0], pipeEnds[1])
        let name = keychain.lastPathComponent
        let watched: Set<String> = [name, name + "-wal", name + "-journal"]
        let fds = (descriptor, pipeEnds[0])
        Thread.detachNewThread {
            LocalChangeWatcher.run(inotify: fds.0, stop: fds.1, watched: watched, onChange: onChange)
            close(fds.0)
            close(fds.1)
        }
    }

    /// Ends the watching thread (which closes its descriptors).
    func stop() {
        var byte: UInt8 = 1
        _ = write(stopPipe.write, &byte, 1)
        close(stopPipe.write)
    }

    /// Waits for events; after each burst that touched a watched file, calls `onChange` at once
    /// and then at 50 ms and 500 ms unless another burst comes first.
    private static func run(inotify: Int32, stop: Int32, watched: Set<String>, onChange: @Sendable () -> Void) {
        let trailing: [Int32] = [50, 450]
        var step = trailing.count  // no trailing call pending
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            var fds = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0), pollfd(fd: stop, events: Int16(POLLIN), revents: 0)]
            let timeout = step < trailing.count ? trailing[step] : -1
            let ready = poll(&fds, 2, timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if fds[1].revents != 0 { return }
            if ready == 0 {
                onChange()
                step += 1
                continue
            }
            let count = read(inotify, &buffer, buffer.count)
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return
            }
            if touchesWatched(buffer[..<count], watched: watched) {
                onChange()
                step = 0
            }
        }
    }

    /// Whether any event in `events` (as read from an inotify descriptor) names a watched file.
    static func touchesWatched(_ events: ArraySlice<UInt8>, watched: Set<String>) -> Bool {
        let header = MemoryLayout<inotify_event>.size
        var offset = events.startIndex
        while offset + header <= events.endIndex {
            let nameLength = events.withUnsafeBytes { raw in
                Int(raw.loadUnaligned(fromByteOffset: offset - events.startIndex + 12, as: UInt32.self))
            }
            let nameStart = offset + header
            let nameEnd = min(nameStart + nameLength, events.endIndex)
            let nameBytes = events[nameStart..<nameEnd].prefix { $0 != 0 }
            if watched.contains(String(decoding: nameBytes, as: UTF8.self)) { return true }
            offset = nameStart + nameLength
        }
        return false
    }
}
#endif
