import Foundation
import KeychainDaemon
import KeychainSecretService
import KeychainStore
import Logging
#if canImport(Glibc)
import Glibc
#endif

/// Keeps the collections keychaind serves in step with the keychains folder while it runs: a
/// keychain that appears there (`keychainctl create-keychain`, a file put back) is served from
/// then on, one that goes away (`keychainctl delete-keychain`) stops being served, and one
/// replaced under the same name is served from its new file. The login keychain likewise: while
/// its file is missing the `login` collection (and the `default` alias) is not served, and
/// keychaind never makes the file itself (that could race a restore); the next program that
/// stores an item makes it, or it is put back, and it is served again.
///
/// Without this, a keychain created after keychaind started was not served until a restart,
/// and a deleted one stayed readable over D-Bus from the file keychaind still held open, where
/// new items then went, out of every other program's reach.
///
/// inotify reports the names that come and go in the folder; once a burst of reports has settled
/// (a keychain arrives with its journal files), one reconciliation compares the folder's keychain
/// files with what is served. A call naming a collection that is not served also reconciles,
/// when the folder changed since the last time, so a keychain just made is usable at once.
final class KeychainFolderWatch: @unchecked Sendable {
    // @unchecked: `servedFiles`, `loginIdentity`, `unopenable` and `reconciledFolderTime` are
    // used only while `reconciling` is held; the descriptors are set before the thread starts.
    private let service: SecretService
    private let login: URL
    private let folder: URL
    private let syncing: SyncSupervision?
    private let logger: Logger
    /// The file each folder collection was served from, by collection name.
    private var servedFiles: [String: ServedFile] = [:]
    /// The login keychain's file while it is served.
    private var loginIdentity: FileIdentity?
    /// Keychain files that could not be opened, by file name: warned about once, tried again
    /// when the file is written or replaced.
    private var unopenable: [String: FileIdentity] = [:]
    /// The folders' modification times when they were last read.
    private var reconciledFolderTime: [Int]?
    private let reconciling = NSLock()
    private var watchFD: Int32 = -1
    /// A pipe whose read end becomes readable when the watch should end.
    private var stopFDs: [Int32] = [-1, -1]

    /// How long the folder must be quiet before a burst of changes is reconciled.
    static let settleMilliseconds: Int32 = 10

    /// How often, with nothing reported, the served collections are looked at for changes no
    /// file shows: a keychain locked or unlocked by another program (its state is in the kernel
    /// keyring) or locked by its idle timeout.
    static let lockStateLookMilliseconds: Int32 = 2000

    /// IN_MODIFY: another program wrote a keychain (its database or write-ahead log).
    private static let watchedEvents = UInt32(IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_CLOSE_WRITE | IN_MODIFY)

    /// A file as the kernel knows it: a name deleted and made again is another file.
    struct FileIdentity: Equatable {
        let device: UInt64
        let inode: UInt64

        init?(_ url: URL) {
            var status = stat()
            guard stat(url.path, &status) == 0 else { return nil }
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
        }
    }

    private struct ServedFile {
        let url: URL
        let identity: FileIdentity
    }

    init(service: SecretService, login: URL, syncing: SyncSupervision?, logger: Logger) {
        self.service = service
        self.login = login.resolvingSymlinksInPath()
        self.folder = KeychainNames.keychainsFolder()
        self.syncing = syncing
        self.logger = logger
    }

    /// The collection name of a keychain file in the folder: its name without the extension,
    /// made fit for an object path; nil for the login keychain and for the reserved names.
    func collectionName(for url: URL) -> String? {
        guard url.resolvingSymlinksInPath() != login else { return nil }
        let label = String(url.lastPathComponent.dropLast(KeychainNames.fileExtension.count))
        let name = SecretService.collectionName(label: label, alias: "")
        guard !name.isEmpty, name != SecretServiceNames.loginCollection, name != SecretServiceNames.sessionCollection else {
            return nil
        }
        return name
    }

    /// Serves the folder's keychains as they are now, then follows the folder's changes (and
    /// those of the login keychain's own folder) on a thread of its own. Without a folder to
    /// watch (or inotify), only the first part is done.
    func start() {
        // The file keychaind opened at its start is the one served as `login` now.
        loginIdentity = FileIdentity(login)
        let folders = Set([folder.path, login.deletingLastPathComponent().path])
        let fd = inotify_init1(Int32(IN_CLOEXEC))
        if fd >= 0, folders.allSatisfy({ inotify_add_watch(fd, $0, Self.watchedEvents) >= 0 }), pipe(&stopFDs) == 0 {
            // Not inherited by the sync children.
            for end in stopFDs { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            watchFD = fd
        } else {
            logger.notice("keychains added to or removed from the folder later are not followed",
                          metadata: ["folder": "\(folder.path)", "error": "\(String(cString: strerror(errno)))"])
            if fd >= 0 { close(fd) }
        }
        service.onMissingCollection { [self] in reconcileIfChanged() }
        // Watching first, then reading the folder: a change in between is reported, not lost.
        reconcile()
        guard watchFD >= 0 else { return }
        Thread { [self] in watch() }.start()
    }

    /// Ends the watch; the thread leaves at its next look.
    func stop() {
        guard stopFDs[1] >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(stopFDs[1], &byte, 1)
    }

    // MARK: Reconciling

    /// Reconciles if a folder changed since the last reconciliation (a call named a collection
    /// that is not served: one may have been made a moment ago). Cheap otherwise: a stat per folder.
    func reconcileIfChanged() {
        reconciling.withLock {
            if folderTimes() != reconciledFolderTime { reconcileHoldingLock() }
        }
    }

    /// Compares the folder's keychain files with the collections served and brings the second
    /// in line with the first.
    func reconcile() {
        reconciling.withLock { reconcileHoldingLock() }
    }

    /// The modification times of the keychains folder and the login keychain's, in nanoseconds.
    private func folderTimes() -> [Int] {
        [folder, login.deletingLastPathComponent()].map { url in
            var status = stat()
            guard stat(url.path, &status) == 0 else { return -1 }
            return status.st_mtim.tv_sec * 1_000_000_000 + status.st_mtim.tv_nsec
        }
    }

    private func reconcileHoldingLock() {
        // Read before the folder is: a change made while it is read moves the time again.
        reconciledFolderTime = folderTimes()
        reconcileLogin()
        var present: [String: ServedFile] = [:]
        var order: [String] = []
        for url in KeychainNames.keychainsInFolder() {
            guard let name = collectionName(for: url), present[name] == nil, let identity = FileIdentity(url) else { continue }
            present[name] = ServedFile(url: url, identity: identity)
            order.append(name)
        }
        for (name, collection) in service.servedCollections {
            guard let keychain = collection as? KeychainCollection, name != SecretServiceNames.loginCollection else { continue }
            let now = present[name]
            if let now, servedFiles[name] == nil {
                // Served before the folder was read (a collection made by CreateCollection): the file is its own.
                servedFiles[name] = now
                continue
            }
            if let now, servedFiles[name]?.identity == now.identity { continue }
            service.withdraw(named: name)
            syncing?.stop(servedFiles[name]?.url ?? keychain.file.url)
            servedFiles[name] = nil
            logger.notice(now == nil ? "a keychain left the folder; no longer served" : "a keychain was replaced; serving its new file",
                          metadata: ["collection": "\(name)"])
        }
        let served = Set(service.servedCollections.map(\.name))
        for name in order where !served.contains(name) {
            let file = present[name]!
            if serve(file, as: name, label: name) { servedFiles[name] = file }
        }
    }

    /// Opens `file` and serves it as `name`, with its sync; false (and nothing served) when it
    /// does not open (reported once per file, until it changes) or the name was taken meanwhile.
    private func serve(_ file: ServedFile, as name: String, label: String) -> Bool {
        let fileName = file.url.lastPathComponent
        if unopenable[fileName] == file.identity { return false }
        let opened: KeychainFile
        do throws(KeychainStoreError) {
            opened = try KeychainFile.open(at: file.url, create: false)
        } catch {
            unopenable[fileName] = file.identity
            logger.warning("a keychain could not be opened; not served", metadata: ["path": "\(file.url.path)", "status": "\(error.status)"])
            return false
        }
        unopenable[fileName] = nil
        guard service.serve(KeychainCollection(file: opened, label: label), named: name) else { return false }
        syncing?.supervise(file.url)
        logger.info("serving a keychain", metadata: ["collection": "\(name)", "path": "\(file.url.path)"])
        return true
    }

    /// Withdraws the login collection when its file was deleted or replaced, and serves the
    /// file at the login keychain's path again once there is one.
    private func reconcileLogin() {
        let now = FileIdentity(login)
        let served = service.servedCollections.contains { $0.name == SecretServiceNames.loginCollection }
        if served && loginIdentity == nil && now != nil {
            // Made again through CreateCollection (libsecret's store to `default`): its file.
            loginIdentity = now
            return
        }
        if served && now == loginIdentity { return }
        if served {
            service.withdraw(named: SecretServiceNames.loginCollection)
            syncing?.stop(login)
            loginIdentity = nil
            logger.notice(now == nil ? "the login keychain was deleted; not served until it exists again"
                                     : "the login keychain was replaced; serving its new file")
        }
        guard let now else { return }
        if serve(ServedFile(url: login, identity: now), as: SecretServiceNames.loginCollection, label: SecretServiceNames.loginLabel) {
            loginIdentity = now
        }
    }

    // MARK: Watching

    private func watch() {
        defer { close(watchFD) }
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            guard wait(timeout: Self.lockStateLookMilliseconds) else {
                if stopRequested { return }
                service.noticeChangesFromOtherDoors()
                continue
            }
            guard var due = readEvents(&buffer) else { return }
            // Let the burst settle, then reconcile once.
            while wait(timeout: Self.settleMilliseconds) {
                guard let more = readEvents(&buffer) else { return }
                due.folder = due.folder || more.folder
                due.items = due.items || more.items
            }
            if stopRequested { return }
            if due.folder { reconcile() }
            if due.items || due.folder { service.noticeChangesFromOtherDoors() }
        }
    }

    /// What a batch of inotify reports calls for: a look at the folder's keychain files, a look
    /// at the served keychains' items.
    private struct Due {
        var folder = false
        var items = false
    }

    private var stopRequested: Bool {
        var stopping = pollfd(fd: stopFDs[0], events: Int16(POLLIN), revents: 0)
        return poll(&stopping, 1, 0) > 0
    }

    /// Waits for reports (true) or until `timeout` ms have passed or a stop (false).
    private func wait(timeout: Int32) -> Bool {
        var fds = [pollfd(fd: watchFD, events: Int16(POLLIN), revents: 0), pollfd(fd: stopFDs[0], events: Int16(POLLIN), revents: 0)]
        while true {
            let ready = poll(&fds, 2, timeout)
            if ready < 0 && errno == EINTR { continue }
            return ready > 0 && fds[1].revents == 0 && fds[0].revents & Int16(POLLIN) != 0
        }
    }

    /// Reads what inotify has reported: whether any of it concerns the keychain files of the
    /// folder or their contents (nil when the watch is over: the folder went away, or reading
    /// failed).
    private func readEvents(_ buffer: inout [UInt8]) -> Due? {
        let count = buffer.withUnsafeMutableBytes { read(watchFD, $0.baseAddress, $0.count) }
        if count < 0 { return errno == EAGAIN || errno == EINTR ? Due() : nil }
        var concerns = false
        var contents = false
        var offset = 0
        // Each report: watch, mask, cookie, name length (four 32-bit fields), then the name,
        // padded with zeros to that length.
        while offset + 16 <= count {
            let (mask, length) = buffer.withUnsafeBytes {
                ($0.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
                 Int($0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)))
            }
            guard offset + 16 + length <= count else { break }
            let nameBytes = buffer[(offset + 16)..<(offset + 16 + length)].prefix { $0 != 0 }
            offset += 16 + length
            if mask & UInt32(IN_IGNORED) != 0 {
                logger.notice("the keychains folder went away; no longer followed", metadata: ["folder": "\(folder.path)"])
                return nil
            }
            if mask & UInt32(IN_Q_OVERFLOW) != 0 { concerns = true; contents = true; continue }
            let name = String(decoding: nameBytes, as: UTF8.self)
            if mask & UInt32(IN_MODIFY) != 0 {
                // A commit writes the write-ahead log; a checkpoint, the database.
                let database = name.hasSuffix("-wal") ? String(name.dropLast(4)) : name
                if database.hasSuffix(KeychainNames.fileExtension) || database == login.lastPathComponent { contents = true }
                continue
            }
            guard name.hasSuffix(KeychainNames.fileExtension) || name == login.lastPathComponent else { continue }
            if mask & UInt32(IN_CLOSE_WRITE) != 0 {
                // Every write to a served keychain ends with one: only a file that could not be
                // opened is worth another look.
                if reconciling.withLock({ unopenable.removeValue(forKey: name) }) != nil { concerns = true }
            } else {
                concerns = true
            }
        }
        return Due(folder: concerns, items: contents)
    }
}
