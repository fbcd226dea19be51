public import Foundation
import Crypto
import Synchronization

/// One keychain file, open for use: the engine behind the SecItem API on this platform.
///
/// A `KeychainFile` is safe to share between threads; it serialises access to its SQLite
/// connection and keys. Several processes may open the same file at once: SQLite's WAL mode and
/// its busy timeout coordinate them, and every operation is one transaction.
///
/// ```swift
/// let keychain = try KeychainFile.open(at: URL(fileURLWithPath: "/tmp/test.keychain-db"),
///                                      deviceKey: .random())
/// ```
public final class KeychainFile: Sendable {
    /// The file's location.
    public let url: URL
    let state: Mutex<State>

    /// The newest schema this code reads and writes.
    public static let schemaVersion: Int64 = 1

    // Only ever touched while `state`'s mutex is held, which is what makes sharing it sound.
    final class State: @unchecked Sendable {
        let db: SQLiteConnection
        var keybag: Keybag
        let index: BlindIndex
        let keychainID: Data
        let deviceKey: DeviceKey
        /// Unlock state shared with the user's other processes (see KeychainFile+Lock.swift).
        var unlock: UnlockState

        init(db: SQLiteConnection, keybag: Keybag, keychainID: Data, deviceKey: DeviceKey) {
            self.db = db
            self.keybag = keybag
            self.index = BlindIndex(key: keybag.indexKey)
            self.keychainID = keychainID
            self.deviceKey = deviceKey
            self.unlock = UnlockState(keychainID: keychainID)
        }
    }

    /// Runs `body` with the engine's state, after bringing the lock state up to date with what
    /// other processes did (an unlock or lock elsewhere, an expired idle timeout).
    func withState<T>(_ body: (State) throws(KeychainStoreError) -> T) throws(KeychainStoreError) -> T {
        try state.withLock { state throws(KeychainStoreError) -> T in
            defer { state.db.resetAll() }
            state.refreshLockState()
            return try body(state)
        }
    }

    private init(url: URL, state: sending State) {
        self.url = url
        self.state = Mutex(state)
    }

    /// Opens the keychain at `url`, creating it (file 0600, folder 0700) when it does not exist
    /// and `create` is true.
    ///
    /// - Parameters:
    ///   - url: the keychain file.
    ///   - deviceKey: the device key; by default the one at ``DeviceKey/defaultLocation(environment:)``,
    ///     created together with a new keychain.
    ///   - create: whether a missing file is created.
    /// - Throws: ``KeychainStoreError`` when the file cannot be opened, is not a keychain, has a
    ///   newer schema, is not private to this user, or the device key does not open it. An
    ///   existing file is never modified to "repair" it.
    public static func open(at url: URL, deviceKey: DeviceKey? = nil, create: Bool = true) throws(KeychainStoreError) -> KeychainFile {
        let path = url.path
        let exists = try SecureFile.checkPrivateFile(path)
        if !exists {
            guard create else { throw .init(status: -25294, reason: "no keychain at '\(path)'") }
            try SecureFile.makePrivateDirectory(url.deletingLastPathComponent())
            try SecureFile.createEmptyPrivateFile(path)
        }
        let key: DeviceKey
        if let deviceKey { key = deviceKey } else { key = try DeviceKey.load(from: DeviceKey.defaultLocation(), create: true) }
        let db = try SQLiteConnection(path: path)
        try configure(db)
        let (keybag, keychainID) = try loadOrCreateSchema(db, deviceKey: key)
        db.resetAll()
        let state = State(db: db, keybag: keybag, keychainID: keychainID, deviceKey: key)
        state.unlock.lockTimeout = try lockTimeoutSetting(db)
        return KeychainFile(url: url, state: state)
    }

    private static func configure(_ db: SQLiteConnection) throws(KeychainStoreError) {
        // WAL lets readers proceed while one process writes; synchronous=FULL makes each commit
        // durable before the call returns; secure_delete overwrites freed pages, so deleted
        // secrets do not linger in the file. The busy timeout lets processes wait for each other.
        try db.execute("PRAGMA busy_timeout = 10000")
        try db.execute("PRAGMA journal_mode = WAL")
        try db.execute("PRAGMA synchronous = FULL")
        try db.execute("PRAGMA secure_delete = ON")
        try db.execute("PRAGMA foreign_keys = OFF")
    }

    /// Reads the schema version, creating the schema in a new file. Creation happens in one
    /// IMMEDIATE transaction, so two processes creating the same keychain agree on one keybag.
    private static func loadOrCreateSchema(_ db: SQLiteConnection, deviceKey: DeviceKey) throws(KeychainStoreError) -> (Keybag, Data) {
        try db.transaction(write: true) { () throws(KeychainStoreError) -> (Keybag, Data) in
            let version = try userVersion(db)
            if version == 0 {
                guard try tableCount(db) == 0 else {
                    throw .decode("the file is an SQLite database but not a keychain")
                }
                return try createSchema(db, deviceKey: deviceKey)
            }
            guard version <= schemaVersion else {
                throw .init(status: -25310, reason: "the keychain was written by a newer version (schema \(version)); this version reads up to \(schemaVersion)")
            }
            return try loadKeybag(db, deviceKey: deviceKey)
        }
    }

    private static func userVersion(_ db: SQLiteConnection) throws(KeychainStoreError) -> Int64 {
        let statement = try db.statement("PRAGMA user_version")
        _ = try statement.step()
        return statement.int64(0)
    }

    private static func tableCount(_ db: SQLiteConnection) throws(KeychainStoreError) -> Int64 {
        let statement = try db.statement("SELECT count(*) FROM sqlite_master")
        _ = try statement.step()
        return statement.int64(0)
    }

    private static func createSchema(_ db: SQLiteConnection, deviceKey: DeviceKey) throws(KeychainStoreError) -> (Keybag, Data) {
        try db.execute("""
            CREATE TABLE settings (name TEXT PRIMARY KEY, value BLOB NOT NULL);
            CREATE TABLE keybag (class INTEGER PRIMARY KEY, wrapping INTEGER NOT NULL, wrapped BLOB NOT NULL);
            """)
        for itemClass in ItemClass.allCases { try db.execute(ItemTable(itemClass).createSQL) }
        let keychainID = Data((0..<16).map { _ in UInt8.random(in: 0...255) })
        let keybag = Keybag.generate()
        try db.statement("INSERT INTO settings (name, value) VALUES (?, ?)").run([.text("keychain-id"), .blob(keychainID)])
        let wrappedIndex = try Keybag.wrap(keybag.indexKey, with: deviceKey.key, label: "index", keychainID: keychainID)
        try db.statement("INSERT INTO settings (name, value) VALUES (?, ?)").run([.text("index-key"), .blob(wrappedIndex)])
        for protection in ProtectionClass.allCases {
            let wrapped = try Keybag.wrap(try keybag.key(for: protection), with: deviceKey.key,
                                          label: Keybag.classLabel(protection), keychainID: keychainID)
            try db.statement("INSERT INTO keybag (class, wrapping, wrapped) VALUES (?, ?, ?)")
                .run([.integer(Int64(protection.rawValue)), .integer(Keybag.Wrapping.deviceKey.rawValue), .blob(wrapped)])
        }
        try db.execute("PRAGMA user_version = \(schemaVersion)")
        return (keybag, keychainID)
    }

    private static func loadKeybag(_ db: SQLiteConnection, deviceKey: DeviceKey) throws(KeychainStoreError) -> (Keybag, Data) {
        guard let keychainID = try setting("keychain-id", db), let wrappedIndex = try setting("index-key", db) else {
            throw .decode("the keychain's settings are missing")
        }
        let indexKey = try Keybag.unwrap(wrappedIndex, with: deviceKey.key, label: "index", keychainID: keychainID)
        var keys: [ProtectionClass: SymmetricKey] = [:]
        var hasPassword = false
        let statement = try db.statement("SELECT class, wrapping, wrapped FROM keybag")
        while try statement.step() {
            guard let protection = ProtectionClass(rawValue: Int(statement.int64(0))),
                  let wrapped = statement.blob(2) else { continue }
            // Only device-key-wrapped classes open without a password; the others stay locked.
            guard statement.int64(1) == Keybag.Wrapping.deviceKey.rawValue else { hasPassword = true; continue }
            keys[protection] = try Keybag.unwrap(wrapped, with: deviceKey.key,
                                                 label: Keybag.classLabel(protection), keychainID: keychainID)
        }
        var keybag = Keybag(classKeys: keys, indexKey: indexKey)
        keybag.hasPassword = hasPassword
        return (keybag, keychainID)
    }

    static func setting(_ name: String, _ db: SQLiteConnection) throws(KeychainStoreError) -> Data? {
        let statement = try db.statement("SELECT value FROM settings WHERE name = ?")
        statement.bind([.text(name)])
        guard try statement.step() else { return nil }
        return statement.blob(0)
    }

    /// Runs SQLite's integrity check; true when the file is sound.
    public func integrityCheck() throws(KeychainStoreError) -> Bool {
        try withState { state throws(KeychainStoreError) -> Bool in
            let statement = try state.db.statement("PRAGMA integrity_check")
            guard try statement.step() else { return false }
            return statement.text(0) == "ok"
        }
    }
}
