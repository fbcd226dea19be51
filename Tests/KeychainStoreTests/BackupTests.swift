import Foundation
import Testing
import KeychainStore
import KeychainTestSupport

/// Backups leave ThisDeviceOnly and akpu items behind and merge by Security's rule: when an
/// item is in both, the later modification date wins, and on equal dates the smaller digest.
@Suite struct BackupTests {
    func add(_ file: KeychainFile, _ account: String, _ pdmn: String, _ secret: String) throws {
        _ = try file.add(.genericPassword, attributes: ["acct": .string(account), "svce": .string("svc"), "pdmn": .string(pdmn),
                                                        "labl": .string("label-\(account)")],
                         secret: Data(secret.utf8), identity: .unconfigured)
    }

    func secret(_ file: KeychainFile, _ account: String) throws -> String? {
        let items = try? file.find(ItemQuery(itemClass: .genericPassword, filters: ["acct": .string(account)]),
                                   identity: .unconfigured, limit: 1, includeSecrets: true)
        return items?.first?.secret.map { String(decoding: $0, as: UTF8.self) }
    }

    @Test("A backup restores every exportable item on another device and leaves device-only ones behind")
    func roundTrip() throws {
        let source = try TestKeychain()
        try source.file.setPassword("device-password", currentPassword: nil)
        for pdmn in ["ak", "ck", "dk", "aku", "cku", "dku", "akpu"] { try add(source.file, pdmn, pdmn, "secret-\(pdmn)") }
        _ = try source.file.add(.internetPassword, attributes: ["srvr": .string("example.net"), "acct": .string("bob"), "port": .integer(443)],
                                secret: Data("inet-secret".utf8), identity: .unconfigured)
        let backup = source.directory.appendingPathComponent("keychain.backup")
        let written = try source.file.exportBackup(to: backup, password: "backup-password")
        #expect(written == 4)

        let bytes = try Data(contentsOf: backup)
        for clear in ["secret-ak", "inet-secret", "label-ak", "example.net"] {
            #expect(bytes.range(of: Data(clear.utf8)) == nil, "\(clear) must not appear in the backup file")
        }

        let target = try TestKeychain()   // another device key: another device
        #expect(try target.file.importBackup(from: backup, password: "backup-password") == 4)
        for pdmn in ["ak", "ck", "dk"] { #expect(try secret(target.file, pdmn) == "secret-\(pdmn)") }
        for pdmn in ["aku", "cku", "dku", "akpu"] { #expect(try secret(target.file, pdmn) == nil) }
        let inet = try target.file.find(ItemQuery(itemClass: .internetPassword), identity: .unconfigured, limit: nil, includeSecrets: true)
        #expect(inet.first?.attributes["port"] == .integer(443))
        #expect(inet.first?.secret == Data("inet-secret".utf8))
        // The restored item keeps its dates and its persistent reference.
        let original = try source.file.find(ItemQuery(itemClass: .internetPassword), identity: .unconfigured, limit: 1, includeSecrets: false)
        #expect(inet.first?.attributes["cdat"] == original.first?.attributes["cdat"])
        #expect(inet.first?.persistentReference == original.first?.persistentReference)
    }

    @Test("Importing merges by Apple's rule: the later modification wins, nothing is lost")
    func mergeByModificationDate() throws {
        let source = try TestKeychain()
        try add(source.file, "older-there", "dk", "from-backup")
        try add(source.file, "newer-there", "dk", "from-backup")
        let target = try TestKeychain()
        try add(target.file, "older-there", "dk", "local")     // added after the backup's copy: newer here
        try add(target.file, "only-here", "dk", "local")
        Thread.sleep(forTimeInterval: 0.01)
        _ = try source.file.update(ItemQuery(itemClass: .genericPassword, filters: ["acct": .string("newer-there")]),
                                   changes: [:], secret: Data("from-backup-updated".utf8), identity: .unconfigured)
        try add(target.file, "newer-there", "dk", "local")
        Thread.sleep(forTimeInterval: 0.01)
        _ = try source.file.update(ItemQuery(itemClass: .genericPassword, filters: ["acct": .string("newer-there")]),
                                   changes: [:], secret: Data("from-backup-latest".utf8), identity: .unconfigured)
        let backup = source.directory.appendingPathComponent("b")
        try source.file.exportBackup(to: backup, password: "p")
        try target.file.importBackup(from: backup, password: "p")
        #expect(try secret(target.file, "older-there") == "local")
        #expect(try secret(target.file, "newer-there") == "from-backup-latest")
        #expect(try secret(target.file, "only-here") == "local")
    }

    @Test("A wrong backup password is errSecAuthFailed and imports nothing")
    func wrongBackupPassword() throws {
        let source = try TestKeychain()
        try add(source.file, "a", "dk", "s")
        let backup = source.directory.appendingPathComponent("b")
        try source.file.exportBackup(to: backup, password: "right")
        let target = try TestKeychain()
        #expect(throws: KeychainStoreError.self) { try target.file.importBackup(from: backup, password: "wrong") }
        do { try target.file.importBackup(from: backup, password: "wrong") } catch {
            #expect(error.status == SecStatus.authFailed)
            #expect(!error.description.contains("wrong"))
        }
        #expect(try secret(target.file, "a") == nil)
    }

    @Test("Exporting a locked keychain fails with errSecInteractionNotAllowed and writes no file")
    func exportWhileLocked() throws {
        let source = try TestKeychain()
        try source.file.setPassword("pw", currentPassword: nil)
        try add(source.file, "a", "ak", "s")
        source.file.lock()
        let backup = source.directory.appendingPathComponent("b")
        #expect(throws: KeychainStoreError.self) { try source.file.exportBackup(to: backup, password: "p") }
        #expect(!FileManager.default.fileExists(atPath: backup.path))
    }

    @Test("The keychain password never reaches the keychain file")
    func passwordNotOnDisk() throws {
        let keychain = try TestKeychain()
        try keychain.file.setPassword("a-very-distinctive-password", currentPassword: nil)
        try keychain.file.setPassword("another-distinctive-password", currentPassword: "a-very-distinctive-password")
        let bytes = keychain.rawBytes()
        for password in ["a-very-distinctive-password", "another-distinctive-password"] {
            #expect(bytes.range(of: Data(password.utf8)) == nil)
            #expect(bytes.range(of: password.data(using: .utf16LittleEndian)!) == nil)
        }
    }
}
