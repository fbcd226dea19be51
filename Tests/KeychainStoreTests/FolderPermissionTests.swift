import Foundation
@testable import KeychainStore
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Keychains and device keys are refused in folders that another user could change, before
/// anything is written there: such a user could swap the file for an older copy or plant a link
/// where SQLite creates its WAL.
@Suite("Folders others can change: refused, nothing created")
struct FolderPermissionTests {
    /// A fresh folder under the temporary directory, with exactly `mode` (umask aside).
    static func folder(mode: mode_t) throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("swift-keychain-folders-\(UUID().uuidString)", isDirectory: true)
        try #require(mkdir(url.path, 0o700) == 0)
        try #require(chmod(url.path, mode) == 0)
        return url
    }

    static func remove(_ url: URL) {
        chmod(url.path, 0o700)
        try? FileManager.default.removeItem(at: url)
    }

    static func names(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    static func status(_ body: () throws -> Void) -> (Int32?, String) {
        do {
            try body()
            return (nil, "")
        } catch let error as KeychainStoreError {
            return (error.status, error.reason)
        } catch {
            return (nil, "\(error)")
        }
    }

    @Test("Creating a keychain in a folder others can write is errSecNotAvailable, and nothing is created",
          arguments: [0o777 as mode_t, 0o1777, 0o770, 0o720, 0o702])
    func keychainInWritableFolder(mode: mode_t) throws {
        let folder = try Self.folder(mode: mode)
        defer { Self.remove(folder) }
        let (status, reason) = Self.status {
            _ = try KeychainFile.open(at: folder.appendingPathComponent("k.keychain-db"), deviceKey: .random(), create: true)
        }
        #expect(status == SecStatus.notAvailable, "\(reason)")
        #expect(reason.contains(folder.path) && reason.contains("chmod 700"), "\(reason)")
        #expect(try Self.names(in: folder) == [])
    }

    @Test("Creating a device key in a folder everyone can write is errSecNotAvailable, and nothing is created")
    func deviceKeyInWritableFolder() throws {
        let folder = try Self.folder(mode: 0o777)
        defer { Self.remove(folder) }
        let (status, reason) = Self.status {
            _ = try DeviceKey.load(from: folder.appendingPathComponent("device-key"), create: true)
        }
        #expect(status == SecStatus.notAvailable, "\(reason)")
        #expect(reason.contains("chmod 700"), "\(reason)")
        #expect(try Self.names(in: folder) == [])
    }

    @Test("An existing keychain whose folder became writable by others is refused and left as it was")
    func existingKeychainInWritableFolder() throws {
        let folder = try Self.folder(mode: 0o700)
        defer { Self.remove(folder) }
        let key = DeviceKey.random()
        let url = folder.appendingPathComponent("k.keychain-db")
        _ = try KeychainFile.open(at: url, deviceKey: key, create: true)
        let before = try Data(contentsOf: url)
        let namesBefore = try Self.names(in: folder)
        try #require(chmod(folder.path, 0o777) == 0)
        let (status, reason) = Self.status { _ = try KeychainFile.open(at: url, deviceKey: key, create: false) }
        #expect(status == SecStatus.notAvailable, "\(reason)")
        #expect(try Data(contentsOf: url) == before)
        #expect(try Self.names(in: folder) == namesBefore)
        // Fixing the folder as the message says makes it open again.
        try #require(chmod(folder.path, 0o700) == 0)
        #expect(throws: Never.self) { _ = try KeychainFile.open(at: url, deviceKey: key, create: false) }
    }

    @Test("An existing device key in a folder others can write is refused")
    func existingDeviceKeyInWritableFolder() throws {
        let folder = try Self.folder(mode: 0o700)
        defer { Self.remove(folder) }
        let url = folder.appendingPathComponent("device-key")
        _ = try DeviceKey.load(from: url, create: true)
        try #require(chmod(folder.path, 0o770) == 0)
        let (status, reason) = Self.status { _ = try DeviceKey.load(from: url, create: false) }
        #expect(status == SecStatus.notAvailable, "\(reason)")
    }

    @Test("A folder of another user is refused for the keychain", .enabled(if: geteuid() == 0, "only root can give a folder away"))
    func folderOfAnotherUser() throws {
        let folder = try Self.folder(mode: 0o700)
        defer { Self.remove(folder) }
        try #require(chown(folder.path, 65534, 65534) == 0)
        let (status, reason) = Self.status {
            _ = try KeychainFile.open(at: folder.appendingPathComponent("k.keychain-db"), deviceKey: .random(), create: true)
        }
        #expect(status == SecStatus.notAvailable, "\(reason)")
        #expect(reason.contains("another user"), "\(reason)")
        #expect(try Self.names(in: folder) == [])
    }

    @Test("A folder above the keychain that another user owns is refused", .enabled(if: geteuid() == 0, "only root can give a folder away"))
    func ancestorOfAnotherUser() throws {
        let outer = try Self.folder(mode: 0o755)
        defer { Self.remove(outer) }
        let inner = outer.appendingPathComponent("mine")
        try #require(mkdir(inner.path, 0o700) == 0)
        try #require(chown(outer.path, 65534, 65534) == 0)
        let (status, reason) = Self.status {
            _ = try KeychainFile.open(at: inner.appendingPathComponent("k.keychain-db"), deviceKey: .random(), create: true)
        }
        #expect(status == SecStatus.notAvailable, "\(reason)")
        #expect(try Self.names(in: inner) == [])
    }

    @Test("A folder above that everyone can write, without the sticky bit, is refused even for a folder still to be made")
    func ancestorWritableByAll() throws {
        let outer = try Self.folder(mode: 0o777)
        defer { Self.remove(outer) }
        let (status, reason) = Self.status {
            _ = try KeychainFile.open(at: outer.appendingPathComponent("new/k.keychain-db"), deviceKey: .random(), create: true)
        }
        #expect(status == SecStatus.notAvailable, "\(reason)")
        #expect(try Self.names(in: outer) == [])
    }

    @Test("A 0755 folder of this user is accepted as it is; a folder the keychain creates is 0700")
    func readableFolderAcceptedCreatedFolderPrivate() throws {
        let folder = try Self.folder(mode: 0o755)
        defer { Self.remove(folder) }
        _ = try KeychainFile.open(at: folder.appendingPathComponent("k.keychain-db"), deviceKey: .random(), create: true)
        var info = stat()
        try #require(stat(folder.path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o755)

        let created = folder.appendingPathComponent("made/deeper")
        _ = try KeychainFile.open(at: created.appendingPathComponent("k.keychain-db"), deviceKey: .random(), create: true)
        try #require(stat(created.path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o700)
    }
}
