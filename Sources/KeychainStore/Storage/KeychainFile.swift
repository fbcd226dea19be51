#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
import Crypto
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One keychain file, open for use: the engine behind the SecItem API on this platform.
///
/// A `KeychainFile` is safe to share between threads; it serialises access to its SQLite
/// connection and keys. Several processes may open the same file at once: SQLite's WAL mode and
/// its busy timeout coordinate them, and every operation is one transaction.
///
/// ```swift
/// let key = try DeviceKey.load(from: URL(fileURLWithPath: "/tmp/test.device-key"), create: true)
/// let keychain = try KeychainFile.open(at: URL(fileURLWithPath: "/tmp/test.keychain-db"),
///                                      deviceKey: key)
/// ```
///
/// KeychainStore is not a supported API: clients use KeychainServices or KeychainKit. This type
/// and the few members marked `public` are public only so that the benchmarks, a separate package
/// built in release mode, can open, fill, lock and unlock a keychain directly; everything else is
/// `package`-level (see docs/architecture.md).
public final class KeychainFile: Sendable {
    /// The file's location.
    package let url: URL
    let state: Locked<State>

    /// The newest schema this code reads and writes. 2: leaner lookup indexes; 3: the primary
    /// key's index also serves lookups by the pair (service and account...), which lose their
    /// own index, as do attributes with few values (ItemTable); 4: persistent references name
    /// their row, and `persistref` loses its index (RowReference.swift); 5: the keybag and the
    /// settings the engine trusts are one authenticated record (KeybagRecord.swift), and items
    /// written since bind their attributes to their secret (SecretBinding.swift). Items written
    /// under earlier schemas are read as they are.
    package static let schemaVersion: Int64 = 5

    // Only ever touched while `state`'s mutex is held, which is what makes sharing it sound.
    final class State: @unchecked Sendable {
        let db: SQLiteConnection
        var keybag: Keybag
        let index: BlindIndex
        let keychainID: Data
        let deviceKey: DeviceKey
        /// Unlock state shared with the user's other processes (see KeychainFile+Lock.swift).
        var unlock: UnlockState
        /// Blind indexes of few-valued attributes already computed (``rememberedIndex(_:matchBytes:)``).
        var rememberedIndexes: [RememberedIndexKey: Data] = [:]
        /// Search SQL already joined, by shape (``selectSQL(_:_:_:)``).
        var selectTexts: [SelectShape: String] = [:]
        /// Update SQL already made, by table and columns set (``updateSQL(_:_:)``).
        var updateTexts: [UpdateShape: String] = [:]
        /// The random bytes of the write transaction in progress (``itemTransaction(_:)``); nil
        /// outside one, where each use draws its own.
        var writeRandom: RandomReserve?

        init(db: SQLiteConnection, keybag: Keybag, deviceKey: DeviceKey) {
            self.db = db
            self.keybag = keybag
            self.index = BlindIndex(key: keybag.indexKey)
            let keychainID = keybag.keychainID
            self.keychainID = keychainID
            self.deviceKey = deviceKey
            self.unlock = UnlockState(keychainID: keychainID)
        }
    }

    /// What a search's SQL text depends on: the columns read, the table, the conditions.
    struct SelectShape: Hashable {
        let columns: String
        let table: String
        let conditions: [String]
    }

    /// What an update's SQL text depends on: the table and the columns it sets, in order.
    struct UpdateShape: Hashable {
        let table: String
        let columns: [String]
    }

    /// A remembered blind index's input: the attribute and its value's match bytes.
    struct RememberedIndexKey: Hashable {
        let name: String
        let bytes: [UInt8]
    }

    /// Runs `body` with the engine's state, after bringing the lock state up to date with what
    /// other processes did (an unlock or lock elsewhere, an expired idle timeout).
    func withState<T>(_ body: (State) throws(KeychainStoreError) -> T) throws(KeychainStoreError) -> T {
        try withLockedState { state throws(KeychainStoreError) -> T in
            try state.refreshLockState()
            return try body(state)
        }
    }

    /// ``withState(_:)`` for a look that is not a use of the keychain (a daemon watching for
    /// changes): the idle timeout is not extended by it.
    func withStateWithoutUse<T>(_ body: (State) throws(KeychainStoreError) -> T) throws(KeychainStoreError) -> T {
        try withLockedState { state throws(KeychainStoreError) -> T in
            try state.refreshLockState(asUse: false)
            return try body(state)
        }
    }

    /// ``withState(_:)`` for a call that only reads: the lock-state refresh and `body` run in one
    /// read transaction, so they see one snapshot of the file and take SQLite's WAL read lock
    /// once (two `fcntl` calls a lookup fewer, about a microsecond here). `body` must not write.
    func withReadState<T: Sendable>(_ body: (State) throws(KeychainStoreError) -> T) throws(KeychainStoreError) -> T {
        try withLockedState { state throws(KeychainStoreError) -> T in
            try state.db.transaction(write: false) { () throws(KeychainStoreError) -> T in
                try state.refreshLockState()
                return try body(state)
            }
        }
    }

    /// ``withState(_:)`` for a call that writes items: the lock-state refresh runs inside the
    /// write transaction (``State/itemTransaction(_:)``), as a read's runs inside its read
    /// transaction, so the refresh and the write see one state of the file and SQLite's locks
    /// are taken once (a read transaction of its own first cost every write two `fcntl` calls;
    /// Benchmarks/notes/2026-12-02-figures-from-source-comments.md). A write refused because its
    /// class is locked takes the write lock first (waiting for another writer like any write)
    /// and writes nothing. `afterCommit` runs once the transaction has committed, still under
    /// the state's lock.
    func withItemTransaction<T>(_ body: (State) throws(KeychainStoreError) -> T,
                                afterCommit: (State, T) -> Void = { _, _ in }) throws(KeychainStoreError) -> T {
        try withLockedState { state throws(KeychainStoreError) -> T in
            let result = try state.itemTransaction { () throws(KeychainStoreError) -> T in
                try state.refreshLockState()
                return try body(state)
            }
            afterCommit(state, result)
            return result
        }
    }

    /// `body` under the state's lock; every statement is reset and keys read from the shared
    /// unlock state are forgotten afterwards, whatever `body` did.
    private func withLockedState<T>(_ body: (State) throws(KeychainStoreError) -> T) throws(KeychainStoreError) -> T {
        try state.withLock { state throws(KeychainStoreError) -> T in
            defer {
                state.db.resetAll()
                state.forgetSharedKeys()
            }
            return try body(state)
        }
    }

    private init(url: URL, state: sending State) {
        self.url = url
        self.state = Locked(state)
    }

    /// Opens the keychain at `url`, creating it (file 0600, folder 0700) when it does not exist
    /// and `create` is true.
    ///
    /// - Parameters:
    ///   - url: the keychain file.
    ///   - deviceKey: the device key; by default the one at ``DeviceKey/defaultLocation(environment:)``,
    ///     created together with a new keychain.
    ///   - create: whether a missing file is created.
    /// - Throws: ``KeychainStoreError``: `errSecNoSuchKeychain` (-25294) when the file is missing
    ///   and `create` is false; `errSecNotAvailable` (-25291) when the path is a symbolic link, not
    ///   private to this user, or the device key is missing or does not open it;
    ///   `errSecInvalidKeychain` (-25295) when the file is empty, damaged or not a keychain;
    ///   `errSecWrongSecVersion` (-25310) when a newer version wrote it. An existing file is never
    ///   modified to "repair" it: every check happens before anything is written.
    public static func open(at url: URL, deviceKey: DeviceKey? = nil, create: Bool = true) throws(KeychainStoreError) -> KeychainFile {
        let path = url.path
        // SQLite writes through the companions next to the file: a planted link or a file open
        // to others there would redirect or expose the keychain's writes.
        for suffix in ["-wal", "-shm"] { _ = try SecureFile.checkPrivateFile(path + suffix) }
        let exists = try SecureFile.checkPrivateFile(path)
        guard exists || create else { throw .init(status: SecStatus.noSuchKeychain, reason: "no keychain at '\(path)'") }
        if !exists { try refuseIfMovedToKeeper(url) }
        // The default device key is made only together with a new keychain: for an existing one,
        // a missing key is an error, not a reason to invent a key that cannot open it.
        let key: DeviceKey
        if let deviceKey { key = deviceKey } else { key = try DeviceKey.load(from: DeviceKey.defaultLocation(), create: !exists) }
        if !exists { try createKeychain(at: url, deviceKey: key) }
        let header = try checkHeader(path)
        do throws(KeychainStoreError) {
            let db = try SQLiteConnection(path: path)
            try configure(db)
            try auditSchema(db, path: path)
            var keybag = try loadSchema(db, path: path, deviceKey: key)
            if header?.looksTruncated ?? false { try quickCheck(db, path: path) }
            db.resetAll()
            // Only after the file proved to be a sound keychain that this device key opens (and
            // with no statement pending, which would keep SQLite from dropping an index).
            if try upgradeSchema(db, deviceKey: key) || keybag == nil {
                keybag = try db.transaction(write: false) { () throws(KeychainStoreError) -> Keybag in
                    try loadKeybag(db, deviceKey: key)
                }
            }
            db.resetAll()
            guard let keybag else { throw KeychainStoreError.internal("the keybag was not loaded") }
            let state = State(db: db, keybag: keybag, deviceKey: key)
            state.unlock.lockTimeout = keybag.record.lockTimeout
            return KeychainFile(url: url, state: state)
        } catch where error.status == SecStatus.decode {
            // SQLite found the file damaged (CORRUPT, NOTADB) while opening it.
            throw invalidKeychain(path, "is damaged or not a keychain (\(error.reason))")
        }
    }

    /// The application id in every keychain's SQLite header ("swkc"), so that `file(1)` and
    /// this code can tell a keychain from another SQLite database.
    static let applicationID: Int64 = 0x7377_6B63

    static func invalidKeychain(_ path: String, _ problem: String) -> KeychainStoreError {
        .init(status: SecStatus.invalidKeychain, reason: "'\(path)' \(problem)")
    }

    /// Refuses, before SQLite opens it, a file that cannot be a keychain: empty, not SQLite,
    /// another application's database, not in WAL mode, or of a newer schema. Returns the header,
    /// or nil when an empty file has a WAL (a keychain whose writer died before its first
    /// checkpoint, which SQLite itself can judge).
    private static func checkHeader(_ path: String) throws(KeychainStoreError) -> SQLiteHeader? {
        switch try SQLiteHeader.read(path) {
        case .failure(.empty):
            let wal = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
            guard wal > 0 else {
                throw invalidKeychain(path, "is empty: a keychain always holds its keys, so this file was truncated or is not a keychain")
            }
            return nil
        case .failure(.notSQLite):
            throw invalidKeychain(path, "is not a keychain (it is not an SQLite database)")
        case .success(let header):
            guard header.applicationID == 0 || Int64(header.applicationID) == applicationID else {
                throw invalidKeychain(path, "is another application's SQLite database, not a keychain")
            }
            guard header.isWAL else {
                throw invalidKeychain(path, "is an SQLite database but not a keychain (keychains use WAL mode)")
            }
            guard Int64(header.userVersion) <= schemaVersion else { throw newerSchema(Int64(header.userVersion)) }
            return header
        }
    }

    static func newerSchema(_ version: Int64) -> KeychainStoreError {
        .init(status: SecStatus.wrongSecVersion, reason: "the keychain was written by a newer version (schema \(version)); this version reads up to \(schemaVersion)")
    }

    private static func configure(_ db: SQLiteConnection) throws(KeychainStoreError) {
        // synchronous=FULL makes each commit durable before the call returns; secure_delete
        // overwrites freed pages, so deleted secrets do not linger in the file; temporary tables
        // and indexes stay in memory, never in a temporary file. The busy timeout lets processes
        // wait for each other. (WAL mode is set when the file is created and kept in its header.)
        // The defensive settings come first, before any statement reads the schema, which is not
        // trusted (SQLiteConnection+Defensive.swift).
        try db.applyDefensiveSettings()
        try db.execute("PRAGMA busy_timeout = 10000")
        try db.execute("PRAGMA synchronous = FULL")
        try db.execute("PRAGMA secure_delete = ON")
        try db.execute("PRAGMA temp_store = MEMORY")
        try db.execute("PRAGMA foreign_keys = OFF")
    }

    /// Creates a complete keychain under a temporary name and links it into place, so that the
    /// path never holds a half-made keychain and an empty file there is damage, not a new
    /// keychain. When another process links its keychain first, theirs is kept.
    private static func createKeychain(at url: URL, deviceKey: DeviceKey) throws(KeychainStoreError) {
        try SecureFile.makePrivateDirectory(url.deletingLastPathComponent())
        let suffix = PlainText.lowercaseHex(try secureRandomBytes(8))
        let temporary = url.path + ".new-" + suffix
        try SecureFile.createEmptyPrivateFile(temporary)
        defer { for name in ["", "-wal", "-shm", "-journal"] { unlink(temporary + name) } }
        let db = try SQLiteConnection(path: temporary)
        try configure(db)
        try db.execute("PRAGMA journal_mode = WAL")
        try db.transaction(write: true) { () throws(KeychainStoreError) in try createSchema(db, deviceKey: deviceKey) }
        // Closing the last connection checkpoints everything into the file and removes the WAL.
        try db.close()
        try SecureFile.syncFile(temporary)
        if link(temporary, url.path) != 0 && errno != EEXIST {
            throw .io("cannot create '\(url.path)': \(String(cString: strerror(errno)))")
        }
        SecureFile.syncDirectory(url.deletingLastPathComponent())
    }

    /// Reads the schema version and the keybag in one read transaction, proving the device key
    /// opens the file; writes nothing. Returns the keybag when the schema is current (an older
    /// keybag is read only to check the device key: the upgrade converts it).
    private static func loadSchema(_ db: SQLiteConnection, path: String, deviceKey: DeviceKey) throws(KeychainStoreError) -> Keybag? {
        try db.transaction(write: false) { () throws(KeychainStoreError) -> Keybag? in
            let version = try userVersion(db)
            if version == 0 {
                throw invalidKeychain(path, try tableCount(db) == 0
                    ? "is an empty SQLite database, not a keychain"
                    : "is an SQLite database but not a keychain")
            }
            guard version <= schemaVersion else { throw newerSchema(version) }
            if version < 5 {
                _ = try LegacyKeybag.read(db, deviceKey: deviceKey)
                return nil
            }
            return try loadKeybag(db, deviceKey: deviceKey)
        }
    }

    /// Brings an older keychain's schema up to date in one transaction. Sealed items are never
    /// rewritten, and rows keep their numbers and references: schemas 1 and 2 differ only in
    /// their indexes and in the `pk` column, which schema 3 derives from other columns of the
    /// row; schema 4 drops the index on `persistref` (which takes rebuilding the table) and lists
    /// the existing references in `<table>_refs`, since they do not name their rows; schema 5
    /// converts the keybag rows and settings into one authenticated record. Returns whether it
    /// upgraded anything.
    private static func upgradeSchema(_ db: SQLiteConnection, deviceKey: DeviceKey) throws(KeychainStoreError) -> Bool {
        guard try userVersion(db) < schemaVersion else { return false }
        return try db.transaction(write: true) { () throws(KeychainStoreError) -> Bool in
            // Checked again inside the write lock: another process may have upgraded it meanwhile.
            let version = try userVersion(db)
            guard version < schemaVersion else { return false }
            db.resetAll()
            if version < 5 { try LegacyKeybag.upgrade(db, deviceKey: deviceKey) }
            for itemClass in ItemClass.allCases {
                let table = ItemTable(itemClass)
                if version < 3 {
                    for name in table.olderIndexesToDrop { try db.execute("DROP INDEX IF EXISTS \(name)") }
                    try db.execute(table.primaryKeyUpgradeSQL)
                }
                if version < 4 { try db.execute(table.referenceUpgradeSQL) }
                for sql in table.indexSQL { try db.execute(sql) }
            }
            try db.execute("PRAGMA user_version = \(schemaVersion)")
            return true
        }
    }

    /// SQLite's quick check, when the header suggests the file lost its tail.
    private static func quickCheck(_ db: SQLiteConnection, path: String) throws(KeychainStoreError) {
        let statement = try db.statement("PRAGMA quick_check(1)")
        let verdict = try statement.step() ? statement.text(0) : nil
        guard verdict == "ok" else {
            throw invalidKeychain(path, "is damaged (truncated?): SQLite's check says \(verdict ?? "nothing")")
        }
    }

    static func userVersion(_ db: SQLiteConnection) throws(KeychainStoreError) -> Int64 {
        let statement = try db.statement("PRAGMA user_version")
        _ = try statement.step()
        return statement.int64(0)
    }

    private static func tableCount(_ db: SQLiteConnection) throws(KeychainStoreError) -> Int64 {
        let statement = try db.statement("SELECT count(*) FROM sqlite_master")
        _ = try statement.step()
        return statement.int64(0)
    }

    private static func createSchema(_ db: SQLiteConnection, deviceKey: DeviceKey) throws(KeychainStoreError) {
        try db.execute(ExpectedSchema.settingsSQL)
        for itemClass in ItemClass.allCases { try db.execute(ItemTable(itemClass).createSQL) }
        let keychainID = try secureRandomBytes(16)
        let keybag = try Keybag.generate(deviceKey: deviceKey, keychainID: keychainID)
        try db.statement("INSERT INTO settings (name, value) VALUES (?, ?)").run([.text(keychainIDSetting), .blob(keychainID)])
        try db.statement("INSERT INTO settings (name, value) VALUES (?, ?)")
            .run([.text(KeybagRecord.settingName), .blob(keybag.record.sealed(deviceKey: deviceKey, keychainID: keychainID))])
        try db.execute("PRAGMA application_id = \(applicationID)")
        try db.execute("PRAGMA user_version = \(schemaVersion)")
    }

    /// The `settings` row of the keychain's random identity (bound into every key wrapping).
    static let keychainIDSetting = "keychain-id"

    /// Reads and authenticates the keybag record (inside a transaction).
    static func loadKeybag(_ db: SQLiteConnection, deviceKey: DeviceKey) throws(KeychainStoreError) -> Keybag {
        guard let keychainID = try setting(keychainIDSetting, db) else { throw .decode("the keychain's identity is missing") }
        guard let sealed = try setting(KeybagRecord.settingName, db) else { throw .decode("the keychain's keybag is missing") }
        let record = try KeybagRecord.open(sealed, deviceKey: deviceKey, keychainID: keychainID)
        return try Keybag.load(record, deviceKey: deviceKey, keychainID: keychainID)
    }

    static func setting(_ name: String, _ db: SQLiteConnection) throws(KeychainStoreError) -> Data? {
        let statement = try db.statement("SELECT value FROM settings WHERE name = ?")
        statement.bind([.text(name)])
        guard try statement.step() else { return nil }
        return statement.blob(0)
    }

    /// Runs SQLite's integrity check; true when the file is sound.
    package func integrityCheck() throws(KeychainStoreError) -> Bool {
        try withState { state throws(KeychainStoreError) -> Bool in
            let statement = try state.db.statement("PRAGMA integrity_check")
            guard try statement.step() else { return false }
            return statement.text(0) == "ok"
        }
    }
}
