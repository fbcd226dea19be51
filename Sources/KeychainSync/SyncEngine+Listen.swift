#if Sync  // built only with the Sync trait (Package.swift)
import Foundation
import KeychainStore
import PostgresNIO

/// Continuous sync (docs/sync.md, "Continuous sync"): what `keychain-sync watch` runs, and so
/// what keychaind runs through it.
///
/// One connection stays open: it listens on the group's channel, and the same connection carries
/// the rounds, so a notification costs one pull query and no connection set-up. A notification
/// pulls only; a push follows when a pulled record lost to the local item or was refused, or
/// when the keychain file was committed to by another process (inotify wakes the loop, SQLite's
/// `data_version` confirms; see ``LocalChangeWatcher``). Only then does a round pay the full
/// comparison of every synchronizable item with the version last agreed. When the server goes
/// away the loop waits (0.5 s, doubling to 30 s) and connects again; the first round of every
/// connection pulls and pushes everything, so changes made meanwhile reach the server then.
extension SyncEngine {
    /// What the loop tells its caller.
    package enum ListenEvent: Sendable {
        /// A round ran: the first of each connection, and every one that pulled or pushed.
        case round(RoundReport)
        /// The server could not be reached or the connection broke; the loop tries again after `retryIn` seconds.
        case disconnected(reason: String, retryIn: Double)
    }

    /// The loop's pauses, in seconds.
    package struct ListenTiming: Sendable {
        /// The wait before the first reconnection attempt; it doubles after each failure.
        package var firstRetry: Double = 0.5
        /// The longest wait between reconnection attempts.
        package var maxRetry: Double = 30
        /// How often the loop checks this device's standing and the connection (and the keychain
        /// file, should an inotify event have been missed).
        package var checkInterval: Double = 60

        package init() {}
    }

    /// The listening connection ended.
    struct ConnectionLost: Error, CustomStringConvertible {
        var description: String { "the connection to the sync server ended" }
    }

    /// Syncs until `onEvent` returns false or the task is cancelled. Throws only what waiting
    /// cannot fix: the keychain has not joined a group, this device was removed, the server's
    /// schema is newer than this version.
    package func listen(timing: ListenTiming = ListenTiming(), onEvent: @Sendable (ListenEvent) async -> Bool) async throws {
        let wakeups = SyncWakeups()
        let watcher = LocalChangeWatcher(keychain: keychain.url) { wakeups.raise(.local) }
        defer { watcher?.stop() }
        var delay = timing.firstRetry
        while !Task.isCancelled {
            do {
                if try await !session(wakeups, timing: timing, delay: &delay, onEvent: onEvent) { return }
            } catch let error as SyncError {
                switch error {
                case .notJoined, .removed, .newerServerSchema, .badURL, .rosterReestablished, .wrongGroup: throw error
                default: break
                }
                if await !onEvent(.disconnected(reason: error.description, retryIn: delay)) { return }
            } catch {
                if Task.isCancelled { return }
                if await !onEvent(.disconnected(reason: String(describing: error), retryIn: delay)) { return }
            }
            do { try await Task.sleep(nanoseconds: UInt64(delay * 1e9)) } catch { return }
            delay = min(delay * 2, timing.maxRetry)
        }
    }

    /// One connection's life: returns false when asked to stop, throws when the connection fails.
    private func session(_ wakeups: SyncWakeups, timing: ListenTiming, delay: inout Double,
                         onEvent: @Sendable (ListenEvent) async -> Bool) async throws -> Bool {
        guard let text = try state.string(Setting.url) else { throw SyncError.notJoined }
        let connection = try await connect(try SyncServerURL(text))
        // What concerned an earlier connection; the first round does everything a wake-up could ask for.
        wakeups.discard([.remote, .lost, .tick])
        let ticker = Task {
            while !Task.isCancelled {
                try await Task.sleep(nanoseconds: UInt64(timing.checkInterval * 1e9))
                wakeups.raise([.tick, .local])
            }
        }
        defer { ticker.cancel() }
        do {
            let keepGoing = try await connection.listen(on: ServerSchema.channel(groupID: try groupID())) { notifications in
                let forward = Task {
                    do { for try await _ in notifications { wakeups.raise(.remote) } } catch {}
                    // Cancelled: this session is over anyway, and its end must not reach the next one.
                    if !Task.isCancelled { wakeups.raise(.lost) }
                }
                defer { forward.cancel() }
                return try await serve(connection, wakeups, timing: timing, delay: &delay, onEvent: onEvent)
            }
            try? await connection.close()
            return keepGoing
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// The rounds of one connection: a full one first, then one per batch of wake-ups.
    private func serve(_ connection: PostgresConnection, _ wakeups: SyncWakeups, timing: ListenTiming, delay: inout Double,
                       onEvent: @Sendable (ListenEvent) async -> Bool) async throws -> Bool {
        var view = try await bounded(connection) { try await refresh(connection) }
        // Taken before a push's comparison starts, so that a commit during it moves it again.
        var seenVersion = try keychain.changeStamp().otherConnections
        var first = RoundReport()
        try await bounded(connection) {
            try await pull(connection, view: &view, report: &first)
            try await pushMerging(connection, view: &view, report: &first)
        }
        try recordRound(first)
        delay = timing.firstRetry  // connected: the next failure starts the backoff afresh
        if await !onEvent(.round(first)) { return false }
        while true {
            let wake = await wakeups.next()
            if wake.contains(.stop) || Task.isCancelled { return false }
            if wake.contains(.lost) { throw ConnectionLost() }
            var report = RoundReport()
            var mustPush = false
            if wake.contains(.local) {
                let version = try keychain.changeStamp().otherConnections
                mustPush = version != seenVersion
            }
            try await bounded(connection) {
                if wake.contains(.tick) { view = try await refresh(connection) }
                if wake.contains(.remote) {
                    try await pull(connection, view: &view, report: &report)
                    // A record that lost to the local item, or was refused, is overwritten by a push.
                    mustPush = mustPush || report.keptLocal > 0 || report.rejected > 0
                }
                if mustPush {
                    seenVersion = try keychain.changeStamp().otherConnections
                    try await pushMerging(connection, view: &view, report: &report)
                }
            }
            if wake.contains(.remote) || mustPush {
                try recordRound(report)
                if await !onEvent(.round(report)) { return false }
            }
        }
    }

    /// Pushes; a push refused because another device wrote first is followed by a pull (whose
    /// merge decides) and another push, a few times at most, as a round does.
    func pushMerging(_ connection: PostgresConnection, view: inout GroupView, report: inout RoundReport) async throws {
        for attempt in 0..<5 {
            if attempt > 0 { try await pull(connection, view: &view, report: &report) }
            let before = report.conflicts
            try await push(connection, view: &view, report: &report)
            if report.conflicts == before { return }
        }
    }

    /// Remembers when the last round ran and what it refused, for `sync status`.
    func recordRound(_ report: RoundReport) throws {
        try state.transaction { () throws(KeychainStoreError) in
            try state.setString(Setting.lastSync, ISO8601DateFormatter().string(from: Date()))
            if report.rejected > 0 { try state.setInteger(Setting.rejected, (try state.integer(Setting.rejected) ?? 0) + Int64(report.rejected)) }
            if report.replayed > 0 { try state.setInteger(Setting.replayed, (try state.integer(Setting.replayed) ?? 0) + Int64(report.replayed)) }
        }
    }

    /// Runs `body`, closing the connection if it takes longer than ``deadline``: a peer that
    /// vanished without closing its socket would otherwise leave a query waiting forever.
    private func bounded<T>(_ connection: PostgresConnection, _ body: () async throws -> T) async throws -> T {
        let deadline = SyncEngine.deadline
        let watchdog = Task {
            try await Task.sleep(nanoseconds: UInt64(deadline * 1e9))
            try? await connection.close()
        }
        defer { watchdog.cancel() }
        return try await body()
    }

    /// Runs ``listen(timing:onEvent:)`` and shows `onRound` each round; returning false ends it.
    package func watch(onRound: @Sendable (RoundReport) async -> Bool) async throws {
        try await listen { event in
            guard case .round(let report) = event else { return true }
            return await onRound(report)
        }
    }
}
#endif
