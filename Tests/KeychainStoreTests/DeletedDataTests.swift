import Foundation
@testable import KeychainStore
import KeychainTestSupport
import Testing

/// Someone who copies the keychain's files after a protected item (class A, or sealed for
/// authentication) was deleted, while a service still has the keychain open, must not find the
/// item's sealed blobs: not in the main file (which `secure_delete` covers) and not in the WAL,
/// which keeps older copies of every page it wrote.
@Suite("Deleted items leave no ciphertext in the file or its WAL")
struct DeletedDataTests {
    /// The stored `meta` and `secret` blobs of the `position`th genp row, read without the engine.
    static func blobs(_ db: SQLiteConnection, position: Int) throws -> [Data] {
        let statement = try db.statement("SELECT meta, secret FROM genp ORDER BY rowid LIMIT 1 OFFSET ?")
        statement.bind([.integer(Int64(position))])
        #expect(try statement.step())
        let found = [statement.blob(0), statement.blob(1)].compactMap { $0 }
        statement.reset()
        return found
    }

    /// Whether any 24-byte piece of `blob` (taken every 8 bytes) appears in `bytes`, so that a
    /// fragment left behind is found as well as the whole.
    static func containsPiece(of blob: Data, in bytes: Data) -> Bool {
        stride(from: 0, through: blob.count - 24, by: 8).contains { offset in
            bytes.range(of: blob.subdata(in: offset..<offset + 24)) != nil
        }
    }

    static func fileAndWAL(_ keychain: TestKeychain) -> (file: Data, wal: Data) {
        let path = keychain.file.url.path
        return (FileManager.default.contents(atPath: path) ?? Data(), FileManager.default.contents(atPath: path + "-wal") ?? Data())
    }

    enum Victim: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case passcodeOnlyRemoved = "a passcode-only (akpu) item, removed"
        case passcodeOnlyTombstone = "a passcode-only (akpu) item, left as a tombstone"
        case sealedForAuthentication = "a class C item whose access control requires authentication"
        var testDescription: String { rawValue }
    }

    @Test("A deleted protected item's sealed blobs are in neither the file nor the WAL, with the keychain and a second connection still open",
          arguments: Victim.allCases)
    func deletedBlobsAreGone(victim kind: Victim) throws {
        let keychain = try TestKeychain()
        try keychain.file.setPassword("pw", currentPassword: nil)
        for account in ["before", "victim", "after"] {
            let isVictim = account == "victim"
            let pdmn = !isVictim ? "dk" : kind == .sealedForAuthentication ? "ck" : "akpu"
            let control = isVictim && kind == .sealedForAuthentication
                ? ItemAccessControl(encoded: Data("acl-presence".utf8), requiresAuthentication: true) : nil
            _ = try keychain.file.add(.genericPassword, attributes: ["acct": .string(account), "pdmn": .string(pdmn)],
                                      secret: Data("secret of \(account) 5Lq8Rw2Zx".utf8), identity: .unconfigured,
                                      accessControl: control)
        }
        // A second connection, as another process using the keychain would have: open, idle.
        let other = try SQLiteConnection(path: keychain.file.url.path)
        let victim = try Self.blobs(other, position: 1)
        #expect(victim.count == 2)
        #expect(KeychainFile.isSealedForAuthentication(victim[1]) == (kind == .sealedForAuthentication))
        // Without the fix the attack succeeds: the blobs are on disk before the delete.
        let before = Self.fileAndWAL(keychain)
        #expect(victim.allSatisfy { Self.containsPiece(of: $0, in: before.file + before.wal) })

        try keychain.file.delete(ItemQuery(itemClass: .genericPassword, filters: ["acct": .string("victim")]), identity: .unconfigured,
                                 tombstones: kind == .passcodeOnlyTombstone)

        let after = Self.fileAndWAL(keychain)
        for (index, blob) in victim.enumerated() {
            let name = index == 0 ? "meta" : "secret"
            #expect(!Self.containsPiece(of: blob, in: after.file), "the deleted item's \(name) is still in the file")
            #expect(!Self.containsPiece(of: blob, in: after.wal), "the deleted item's \(name) is still in the WAL")
        }
        // The other items are untouched.
        let kept = try keychain.file.find(ItemQuery(itemClass: .genericPassword), identity: .unconfigured, limit: nil, includeSecrets: true)
        #expect(kept.compactMap { $0.secret.map { String(decoding: $0, as: UTF8.self) } }
            == ["secret of before 5Lq8Rw2Zx", "secret of after 5Lq8Rw2Zx"])
        _ = other
    }

    @Test("A reader holding the WAL in another connection does not hold up a delete, which still succeeds")
    func busyReaderDoesNotBlockDelete() throws {
        let keychain = try TestKeychain()
        _ = try keychain.file.add(.genericPassword, attributes: ["acct": .string("victim")], secret: Data("s".utf8), identity: .unconfigured)
        let reader = try SQLiteConnection(path: keychain.file.url.path)
        try reader.execute("BEGIN; SELECT count(*) FROM genp;")
        let started = Date()
        try keychain.file.delete(ItemQuery(itemClass: .genericPassword), identity: .unconfigured)
        #expect(Date().timeIntervalSince(started) < 2, "the delete waited for the reader")
        try reader.execute("COMMIT")
        #expect(try keychain.file.find(ItemQuery(itemClass: .genericPassword), identity: .unconfigured, limit: nil,
                                       includeSecrets: false).isEmpty)
    }
}
