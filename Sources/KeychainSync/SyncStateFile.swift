#if Sync  // built only with the Sync trait (Package.swift)
import Crypto
package import Foundation
package import KeychainStore

/// A device's sync state for one keychain, in a SQLite file beside it (`<keychain>.sync`):
/// where the group lives, this device's key pair and the group keys it holds, how far it has
/// pulled, and for each record the revision and item version last agreed with the server.
///
/// Kept out of the keychain file so that the sync engine adds no table or trigger to the
/// keychain's audited schema. Nothing acknowledged locally depends on it: the items stay in the
/// keychain, and a lost state file only makes the next sync compare everything again. Secrets in
/// it (the device's private key, group keys) are sealed under a key derived from the device key.
package final class SyncStateFile {
    /// The schema this code writes (`PRAGMA user_version`).
    package static let schemaVersion: Int64 = 1

    private let db: SQLiteConnection
    private let sealingKey: SymmetricKey
    package let url: URL

    /// The state file that belongs to the keychain at `keychain`.
    package static func location(forKeychain keychain: URL) -> URL {
        KeychainPaths.syncState(forKeychain: keychain)
    }

    package init(at url: URL, deviceKey: DeviceKey) throws(KeychainStoreError) {
        self.url = url
        try SecureFile.createEmptyPrivateFile(url.path)
        db = try SQLiteConnection(path: url.path)
        sealingKey = deviceKey.derivedKey(purpose: "sync state")
        try db.execute("PRAGMA journal_mode = WAL")
        try db.execute("PRAGMA synchronous = FULL")
        try db.execute("PRAGMA busy_timeout = 10000")
        try migrate()
    }

    private func migrate() throws(KeychainStoreError) {
        try db.transaction(write: true) { () throws(KeychainStoreError) in
            let version = try userVersion()
            if version > SyncStateFile.schemaVersion {
                throw .init(status: SecStatus.wrongSecVersion, reason: "the sync state file was written by a newer version")
            }
            if version < 1 {
                try db.execute("CREATE TABLE settings (name TEXT PRIMARY KEY, value BLOB NOT NULL)")
                try db.execute("CREATE TABLE records (record_id BLOB PRIMARY KEY, revision INTEGER NOT NULL, mdat_bits INTEGER NOT NULL, digest BLOB NOT NULL)")
                try db.execute("PRAGMA user_version = 1")
            }
        }
    }

    private func userVersion() throws(KeychainStoreError) -> Int64 {
        let statement = try db.statement("PRAGMA user_version")
        defer { statement.reset() }
        _ = try statement.step()
        return statement.int64(0)
    }

    /// Runs `body` in one write transaction of the state file.
    package func transaction<T>(_ body: () throws(KeychainStoreError) -> T) throws(KeychainStoreError) -> T {
        try db.transaction(write: true, body)
    }

    // MARK: Settings

    package func value(_ name: String) throws(KeychainStoreError) -> Data? {
        let statement = try db.statement("SELECT value FROM settings WHERE name = ?")
        defer { statement.reset() }
        statement.bind([.text(name)])
        return try statement.step() ? statement.blob(0) : nil
    }

    package func setValue(_ name: String, _ value: Data?) throws(KeychainStoreError) {
        if let value {
            try db.statement("INSERT OR REPLACE INTO settings (name, value) VALUES (?, ?)").run([.text(name), .blob(value)])
        } else {
            try db.statement("DELETE FROM settings WHERE name = ?").run([.text(name)])
        }
    }

    package func string(_ name: String) throws(KeychainStoreError) -> String? {
        try value(name).flatMap { String(data: $0, encoding: .utf8) }
    }

    package func setString(_ name: String, _ value: String?) throws(KeychainStoreError) {
        try setValue(name, value.map { Data($0.utf8) })
    }

    package func integer(_ name: String) throws(KeychainStoreError) -> Int64? {
        try string(name).flatMap { Int64($0) }
    }

    package func setInteger(_ name: String, _ value: Int64?) throws(KeychainStoreError) {
        try setString(name, value.map(String.init))
    }

    /// A secret setting, opened with the device-derived key; bound to its name, so a sealed value
    /// moved to another name fails to open.
    package func secret(_ name: String) throws(KeychainStoreError) -> Data? {
        guard let sealed = try value(name) else { return nil }
        do {
            return try AES.GCM.open(AES.GCM.SealedBox(combined: sealed), using: sealingKey, authenticating: Data(name.utf8))
        } catch {
            throw .decode("the sync state's '\(name)' does not open with this device key")
        }
    }

    package func setSecret(_ name: String, _ secret: Data) throws(KeychainStoreError) {
        let sealed: Data?
        do {
            sealed = try AES.GCM.seal(secret, using: sealingKey, authenticating: Data(name.utf8)).combined
        } catch {
            throw .internal("sealing the sync state failed")
        }
        guard let sealed else { throw .internal("sealing the sync state failed") }
        try setValue(name, sealed)
    }

    /// Names of settings that begin with `prefix`.
    package func names(withPrefix prefix: String) throws(KeychainStoreError) -> [String] {
        let statement = try db.statement("SELECT name FROM settings WHERE substr(name, 1, ?) = ? ORDER BY name")
        defer { statement.reset() }
        statement.bind([.integer(Int64(prefix.utf8.count)), .text(prefix)])
        var names: [String] = []
        while try statement.step() { if let name = statement.text(0) { names.append(name) } }
        return names
    }

    // MARK: Records

    /// What a device last agreed with the server about one record: the server's revision and
    /// the item version (modification date and digest) that revision holds.
    package struct RecordState: Sendable, Equatable {
        package var revision: Int64
        package var modificationDate: Double
        package var digest: Data

        package init(revision: Int64, modificationDate: Double, digest: Data) {
            self.revision = revision
            self.modificationDate = modificationDate
            self.digest = digest
        }
    }

    package func recordStates() throws(KeychainStoreError) -> [Data: RecordState] {
        let statement = try db.statement("SELECT record_id, revision, mdat_bits, digest FROM records")
        defer { statement.reset() }
        var states: [Data: RecordState] = [:]
        while try statement.step() {
            guard let id = statement.blob(0) else { continue }
            let mdat = Double(bitPattern: UInt64(bitPattern: statement.int64(2)))
            states[id] = RecordState(revision: statement.int64(1), modificationDate: mdat, digest: statement.blob(3) ?? Data())
        }
        return states
    }

    package func setRecordState(_ recordID: Data, _ state: RecordState) throws(KeychainStoreError) {
        try db.statement("INSERT OR REPLACE INTO records (record_id, revision, mdat_bits, digest) VALUES (?, ?, ?, ?)")
            .run([.blob(recordID), .integer(state.revision), .integer(Int64(bitPattern: state.modificationDate.bitPattern)), .blob(state.digest)])
    }

    /// Replaces every record's agreed state with `states` (after a re-key, the same states under
    /// the records' new ids).
    package func replaceRecordStates(_ states: [Data: RecordState]) throws(KeychainStoreError) {
        try transaction { () throws(KeychainStoreError) in
            try db.execute("DELETE FROM records")
            for (recordID, recordState) in states { try setRecordState(recordID, recordState) }
        }
    }

    /// Forgets everything: the device leaves its group (the keychain's items stay).
    package func reset() throws(KeychainStoreError) {
        try transaction { () throws(KeychainStoreError) in
            try db.execute("DELETE FROM settings")
            try db.execute("DELETE FROM records")
        }
    }

    /// Closes the file now.
    package func close() throws(KeychainStoreError) { try db.close() }
}
#endif
