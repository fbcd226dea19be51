import Foundation
import KeychainStore
import Logging
#if canImport(Glibc)
import Glibc
#endif

/// Keeps one keychain in step with its sync group while keychaind runs, by running
/// `keychain-sync watch` as a child process (docs/sync.md, "Continuous sync"); keychaind has one
/// for every keychain it serves (``SyncSupervision``).
///
/// A child rather than the sync engine in this process: keychaind then does not load SwiftNIO and
/// the PostgreSQL client (its size and start-up stay as they were), no D-Bus call can wait on the
/// network, and a system without keychain-sync (a build that left it out) simply does not sync. The child writes the keychain file like any other process; keychaind's collections
/// read the file on every call, so Secret Service clients see synced items at once.
///
/// The child ends when its standard input, a pipe only this process holds, reaches its end: when
/// keychaind stops, or is killed. A child that fails is started again after a pause (1 s,
/// doubling to 60 s); one that says the keychain is not in a sync group (exit status 4) is started
/// again only when the sync state file changes (`keychainctl sync join` writes it).
final class SyncSupervisor: @unchecked Sendable {
    // @unchecked: every mutable field is guarded by `condition`.
    private let program: String
    /// The keychain file, links resolved: one supervisor per file (``SyncSupervision``).
    let keychain: URL
    private let logger: Logger
    private let condition = NSCondition()
    private var stopping = false
    private var child: Process?
    private var childInput: Pipe?
    private var thread: Thread?

    /// The exit status with which `keychain-sync watch` says there is nothing to sync.
    static let nothingToDoStatus: Int32 = 4
    static let executableName = "keychain-sync"

    /// Starts supervising `keychain` (links resolved) with `program` (keychain-sync, found by
    /// ``locate()``).
    static func start(program: String, keychain: URL, logger: Logger) -> SyncSupervisor {
        let supervisor = SyncSupervisor(program: program, keychain: keychain, logger: logger)
        let thread = Thread { supervisor.supervise() }
        supervisor.thread = thread
        thread.start()
        return supervisor
    }

    private init(program: String, keychain: URL, logger: Logger) {
        self.program = program
        self.keychain = keychain
        self.logger = logger
    }

    /// Ends the supervision and closes the child's input, which tells it to stop; returns the
    /// child, if one runs, for ``awaitEnd(_:)``. Split from the wait so that several children are
    /// told first and waited for together.
    func beginStopping() -> Process? {
        condition.lock()
        defer { condition.unlock() }
        stopping = true
        try? childInput?.fileHandleForWriting.close()
        childInput = nil
        condition.broadcast()
        return child
    }

    /// Waits up to 5 s for a child told to stop, then kills it.
    static func awaitEnd(_ child: Process) {
        for _ in 0..<100 where child.isRunning { usleep(50_000) }
        if child.isRunning { kill(child.processIdentifier, SIGKILL) }
    }

    private var stateFile: URL { KeychainPaths.syncState(forKeychain: keychain) }

    private func modificationDate() -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: stateFile.path))?[.modificationDate] as? Date
    }

    /// Waits `seconds`, or less if stopped; returns false when stopped.
    private func pause(_ seconds: Double) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        if !stopping { _ = condition.wait(until: Date(timeIntervalSinceNow: seconds)) }
        return !stopping
    }

    private func supervise() {
        var backoff = 1.0
        var waitingFor: Date?? = nil  // the state file's date that said "not joined"; a change means try again
        while true {
            // Nothing to do until the keychain has a sync state file (or it changed since it said "not joined").
            let date = modificationDate()
            if date == nil || waitingFor.map({ $0 == date }) == true {
                if !pause(30) { return }
                continue
            }
            waitingFor = nil
            let started = Date()
            guard let status = runChild() else { return }
            condition.lock()
            let stopped = stopping
            condition.unlock()
            if stopped { return }
            if status == SyncSupervisor.nothingToDoStatus {
                logger.notice("the keychain is not in a sync group (or this device was removed); waiting for its sync state to change",
                              metadata: ["keychain": "\(keychain.path)"])
                waitingFor = .some(modificationDate())
                continue
            }
            if Date().timeIntervalSince(started) > 60 { backoff = 1 }
            logger.warning("\(SyncSupervisor.executableName) ended; starting it again",
                           metadata: ["keychain": "\(keychain.path)", "status": "\(status)", "in": "\(backoff) s"])
            if !pause(backoff) { return }
            backoff = min(backoff * 2, 60)
        }
    }

    /// Runs one child to its end and returns its exit status (nil when it could not be started
    /// because keychaind is stopping).
    private func runChild() -> Int32? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = ["watch", "--until-stdin-closes", "--keychain", keychain.path]
        let input = Pipe()
        process.standardInput = input
        // Its reports go where keychaind's own log goes.
        process.standardOutput = FileHandle.standardError
        process.standardError = FileHandle.standardError
        condition.lock()
        guard !stopping else {
            condition.unlock()
            return nil
        }
        do {
            try process.run()
        } catch {
            condition.unlock()
            logger.error("\(SyncSupervisor.executableName) could not be started", metadata: ["keychain": "\(keychain.path)", "error": "\(error)"])
            return pause(60) ? -1 : nil
        }
        child = process
        childInput = input
        condition.unlock()
        logger.info("syncing the keychain through \(SyncSupervisor.executableName)",
                    metadata: ["keychain": "\(keychain.path)", "pid": "\(process.processIdentifier)"])
        process.waitUntilExit()
        condition.lock()
        child = nil
        try? childInput?.fileHandleForWriting.close()
        childInput = nil
        condition.unlock()
        return process.terminationStatus
    }

    /// keychain-sync beside this executable, else the first on PATH.
    static func locate() -> String? {
        if let me = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            let candidate = URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent(executableName).path
            if access(candidate, X_OK) == 0 { return candidate }
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = folder + "/" + executableName
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}

/// The supervision of every keychain keychaind serves: those it found at start and those a
/// client creates while it runs. Each waits, at no cost but a look at a file every 30 s, until its
/// keychain joins a sync group.
final class SyncSupervision: @unchecked Sendable {
    // @unchecked: `supervisors` and `stopped` are guarded by `lock`.
    private let program: String
    private let logger: Logger
    private let lock = NSLock()
    private var supervisors: [SyncSupervisor] = []
    private var stopped = false

    /// Nil (and a note in the log) when keychain-sync is not installed: nothing is synced.
    init?(logger: Logger) {
        guard let program = SyncSupervisor.locate() else {
            logger.debug("\(SyncSupervisor.executableName) is not installed; no keychain is synced")
            return nil
        }
        self.program = program
        self.logger = logger
    }

    /// Supervises `keychain` from now on: once per file, however it is named (links resolved),
    /// and not after ``stopAll()``.
    func supervise(_ keychain: URL) {
        let file = keychain.resolvingSymlinksInPath()
        lock.lock()
        defer { lock.unlock() }
        guard !stopped, !supervisors.contains(where: { $0.keychain == file }) else { return }
        supervisors.append(SyncSupervisor.start(program: program, keychain: file, logger: logger))
    }

    /// Ends the supervision of `keychain` (a keychain no longer served; named as it was given
    /// to ``supervise(_:)``, since a deleted file's links can no longer be resolved) and tells
    /// its child to stop. Does not wait for it (a thread of its own does, and kills it after
    /// 5 s): this may be called while a D-Bus call is being answered.
    func stop(_ keychain: URL) {
        let file = keychain.resolvingSymlinksInPath()
        lock.lock()
        let ending = supervisors.filter { $0.keychain == file || $0.keychain == keychain }
        supervisors.removeAll { $0.keychain == file || $0.keychain == keychain }
        lock.unlock()
        for child in ending.compactMap({ $0.beginStopping() }) {
            Thread { SyncSupervisor.awaitEnd(child) }.start()
        }
    }

    /// Ends every supervision, tells every child to stop, then waits for them together (at most
    /// 5 s in all, rather than 5 s each).
    func stopAll() {
        lock.lock()
        stopped = true
        let all = supervisors
        supervisors = []
        lock.unlock()
        let running = all.compactMap { $0.beginStopping() }
        for child in running { SyncSupervisor.awaitEnd(child) }
    }
}
