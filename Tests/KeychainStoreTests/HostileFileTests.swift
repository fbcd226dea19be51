import Foundation
@testable import KeychainStore
import KeychainTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Opening a file that is not a sound keychain of this user — a link, a file others can read, a
/// file of another user, a truncated file, noise, another program's database, a newer schema, a
/// keychain with the wrong device key — is a clear error naming the problem, and the file (and
/// the folder around it) is left exactly as it was, even when `create` is true.
@Suite("Hostile files: refused with a clear error, never changed")
struct HostileFileTests {
    /// A folder with one keychain holding one item, closed (its WAL checkpointed away).
    struct Folder {
        let directory: URL
        let keychain: URL
        let deviceKey = DeviceKey.random()

        init() throws {
            directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("swift-keychain-hostile-\(UUID().uuidString)", isDirectory: true)
            keychain = directory.appendingPathComponent("hostile.keychain-db")
            let file = try KeychainFile.open(at: keychain, deviceKey: deviceKey)
            _ = try file.add(.genericPassword, attributes: ["acct": .string("kept"), "pdmn": .string("dk")],
                             secret: Data("kept secret".utf8), identity: .unconfigured)
        }

        /// Every file in the folder with its bytes.
        func contents() throws -> [String: Data] {
            var contents: [String: Data] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
                var info = stat()
                let path = directory.appendingPathComponent(name).path
                guard lstat(path, &info) == 0 else { continue }
                if info.st_mode & S_IFMT == S_IFLNK {
                    contents[name] = Data(("link to " + (try FileManager.default.destinationOfSymbolicLink(atPath: path))).utf8)
                } else {
                    contents[name] = try Data(contentsOf: URL(fileURLWithPath: path))
                }
            }
            return contents
        }

        /// Replaces the keychain with `bytes` (mode 0600).
        func write(_ bytes: Data) throws {
            try bytes.write(to: keychain)
            chmod(keychain.path, 0o600)
        }

        /// Opens `url` (the keychain by default) with `create: true` and returns the error; fails
        /// the test if it opened, or if anything in the folder changed.
        func refusal(_ url: URL? = nil, deviceKey: DeviceKey? = nil,
                     sourceLocation: SourceLocation = #_sourceLocation) throws -> KeychainStoreError? {
            let before = try contents()
            var failure: KeychainStoreError?
            do {
                _ = try KeychainFile.open(at: url ?? keychain, deviceKey: deviceKey ?? self.deviceKey, create: true)
                Issue.record("the file opened", sourceLocation: sourceLocation)
            } catch {
                failure = error
            }
            #expect(try contents() == before, "the folder changed", sourceLocation: sourceLocation)
            return failure
        }

        func remove() {
            chmod(directory.path, 0o700)
            try? FileManager.default.removeItem(at: directory)
        }
    }

    @Test("A keychain path that is a symbolic link is refused, even when it points at a good keychain")
    func symbolicLink() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let link = folder.directory.appendingPathComponent("link.keychain-db")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: folder.keychain)
        let error = try folder.refusal(link)
        #expect(error?.status == SecStatus.notAvailable)
        #expect(error?.reason.contains("symbolic link") == true, "\(error.map(String.init(describing:)) ?? "")")
    }

    @Test("A symbolic link planted as the keychain's WAL is refused before SQLite writes through it")
    func symbolicLinkAsWAL() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let elsewhere = folder.directory.appendingPathComponent("elsewhere")
        try Data().write(to: elsewhere)
        try FileManager.default.createSymbolicLink(atPath: folder.keychain.path + "-wal", withDestinationPath: elsewhere.path)
        let error = try folder.refusal()
        #expect(error?.status == SecStatus.notAvailable)
        #expect(error?.reason.contains("-wal") == true)
    }

    @Test("A keychain file that others may read or write is refused", arguments: [0o644, 0o640, 0o604, 0o660, 0o606, 0o666])
    func permissions(mode: Int) throws {
        let folder = try Folder()
        defer { folder.remove() }
        chmod(folder.keychain.path, mode_t(mode))
        let error = try folder.refusal()
        #expect(error?.status == SecStatus.notAvailable)
        #expect(error?.reason.contains("other users") == true)
    }

    @Test("A keychain file owned by another user is refused", .enabled(if: geteuid() == 0, "only root can give a file away"))
    func anotherOwner() throws {
        let folder = try Folder()
        defer { folder.remove() }
        try #require(chown(folder.keychain.path, 65534, 65534) == 0)
        let error = try folder.refusal()
        #expect(error?.status == SecStatus.notAvailable)
        #expect(error?.reason.contains("another user") == true)
    }

    @Test("A truncated keychain file is errSecInvalidKeychain", arguments: ["empty", "50 bytes", "header only", "one page", "half", "last page missing"])
    func truncated(how: String) throws {
        let folder = try Folder()
        defer { folder.remove() }
        let whole = try Data(contentsOf: folder.keychain)
        try #require(whole.count > 3 * 4096)
        let keep = switch how {
        case "empty": 0
        case "50 bytes": 50
        case "header only": 100
        case "one page": 4096
        case "half": whole.count / 2
        default: whole.count - 4096
        }
        try folder.write(whole.prefix(keep))
        let error = try folder.refusal()
        #expect(error?.status == SecStatus.invalidKeychain, "\(error.map(String.init(describing:)) ?? "")")
        #expect(error?.reason.contains(folder.keychain.path) == true)
    }

    @Test("A file that lost its last byte of data is refused, or opens with each item intact or reported damaged")
    func lastDataByteMissing() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let whole = try Data(contentsOf: folder.keychain)
        let lastData = try #require(whole.lastIndex { $0 != 0 })
        try folder.write(whole.prefix(lastData))
        let before = try folder.contents()
        do {
            let file = try KeychainFile.open(at: folder.keychain, deviceKey: folder.deviceKey, create: false)
            // SQLite found the structure sound: the lost byte was item content, which the item's
            // authentication catches. The one item reads intact or as damage, never as other data.
            do {
                let found = try file.find(ItemQuery(itemClass: .genericPassword), identity: .unconfigured, limit: nil, includeSecrets: true)
                #expect(found.map(\.secret) == [Data("kept secret".utf8)])
            } catch {
                #expect(error.status == SecStatus.decode)
            }
        } catch {
            #expect(error.status == SecStatus.invalidKeychain)
        }
        #expect(try folder.contents() == before)
    }

    @Test("A file of random bytes is errSecInvalidKeychain: not an SQLite database")
    func randomBytes() throws {
        let folder = try Folder()
        defer { folder.remove() }
        try folder.write(Data((0..<16_384).map { _ in UInt8.random(in: 0...255) }))
        let error = try folder.refusal()
        #expect(error?.status == SecStatus.invalidKeychain)
        #expect(error?.reason.contains("not an SQLite database") == true)
    }

    @Test("An SQLite database that is not a keychain is errSecInvalidKeychain and is not switched to WAL",
          arguments: ["rollback journal", "WAL", "empty WAL database", "another application"])
    func otherDatabase(kind: String) throws {
        let folder = try Folder()
        defer { folder.remove() }
        try FileManager.default.removeItem(at: folder.keychain)
        try folder.write(Data())
        do {
            let db = try SQLiteConnection(path: folder.keychain.path)
            if kind.contains("WAL") { try db.execute("PRAGMA journal_mode = WAL") }
            if kind == "another application" {
                try db.execute("PRAGMA journal_mode = WAL; PRAGMA application_id = 1234")
            }
            if kind != "empty WAL database" {
                try db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('hello')")
            }
            try db.close()
        }
        let error = try folder.refusal()
        #expect(error?.status == SecStatus.invalidKeychain, "\(error.map(String.init(describing:)) ?? "")")
        #expect(error?.reason.contains("not a keychain") == true)
    }

    @Test("A keychain of a newer schema version is errSecWrongSecVersion and is left as it is")
    func newerSchema() throws {
        let folder = try Folder()
        defer { folder.remove() }
        do {
            let db = try SQLiteConnection(path: folder.keychain.path)
            try db.execute("PRAGMA user_version = 99")
            try db.close()
        }
        let error = try folder.refusal()
        #expect(error?.status == SecStatus.wrongSecVersion)
        #expect(error?.reason.contains("schema 99") == true)
    }

    @Test("A newer schema still in the WAL (not yet in the file's header) is errSecWrongSecVersion too")
    func newerSchemaInWAL() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let writer = try SQLiteConnection(path: folder.keychain.path)
        try writer.execute("PRAGMA wal_autocheckpoint = 0; PRAGMA user_version = 99")
        do {
            _ = try KeychainFile.open(at: folder.keychain, deviceKey: folder.deviceKey)
            Issue.record("the keychain opened")
        } catch {
            #expect(error.status == SecStatus.wrongSecVersion)
        }
        try writer.close()
    }

    @Test("A keychain opened with another device key is refused, and the folder is unchanged")
    func wrongDeviceKey() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let error = try folder.refusal(deviceKey: .random())
        #expect(error?.status == SecStatus.notAvailable)
        #expect(error?.reason.contains("device key") == true)
    }

    @Test("After every refusal the keychain itself still opens with its own key and holds its item")
    func goodKeychainStillOpens() throws {
        let folder = try Folder()
        defer { folder.remove() }
        _ = try folder.refusal(deviceKey: .random())
        let file = try KeychainFile.open(at: folder.keychain, deviceKey: folder.deviceKey, create: false)
        let found = try file.find(ItemQuery(itemClass: .genericPassword), identity: .unconfigured, limit: nil, includeSecrets: true)
        #expect(found.map(\.secret) == [Data("kept secret".utf8)])
    }

    @Test("An empty file where a keychain is expected is refused, not made into a new keychain")
    func emptyFileIsNotANewKeychain() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let empty = folder.directory.appendingPathComponent("empty.keychain-db")
        try #require(FileManager.default.createFile(atPath: empty.path, contents: nil, attributes: [.posixPermissions: 0o600]))
        let error = try folder.refusal(empty)
        #expect(error?.status == SecStatus.invalidKeychain)
        #expect(error?.reason.contains("empty") == true)
    }
}
