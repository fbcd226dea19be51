#if DEBUG
import Foundation
@testable import KeychainStore
import KeychainTestSupport
import Testing

/// Faults forced where the engine writes files itself (the device key, backups, a new keychain)
/// and where it draws random bytes: a failure is an error status and leaves nothing behind — no
/// partial file, no temporary file, never a half-made keychain.
@Suite("Reliability: file-creation and random-generator faults leave nothing half-made")
struct ReliabilityFileFaultTests {
    static let ENOSPC: Int32 = 28
    static let EIO: Int32 = 5

    static func scratch() throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("swift-keychain-file-faults-\(UUID().uuidString)", isDirectory: true)
        // 0700 whatever the umask: keychain folders others could change are refused.
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return directory
    }

    static func contents(_ directory: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    }

    @Test("A short write while creating the device key is continued: the key file is whole")
    func shortWriteIsContinued() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("device-key")
        let plan = FaultPlan(.init(.fileWrite, result: 5), .init(.fileWrite, result: 11))
        let key = try FaultInjection.$plan.withValue(plan) { try DeviceKey.load(from: url, create: true) }
        #expect(plan.fired(.fileWrite) == 2)
        let stored = try Data(contentsOf: url)
        #expect(stored.count == 32)
        #expect(stored == key.key.withUnsafeBytes { Data($0) })
        #expect(Self.contents(directory) == ["device-key"])
    }

    @Test("A full disk while creating the device key is errSecDiskFull, and no file is left",
          arguments: [[FaultPlan.Rule(.fileWrite, result: -ENOSPC)],
                      [FaultPlan.Rule(.fileWrite, result: 7), FaultPlan.Rule(.fileWrite, result: -ENOSPC)]])
    func fullDiskDeviceKey(rules: [FaultPlan.Rule]) throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("device-key")
        let plan = FaultPlan(rules: rules)
        let failure = FaultInjection.$plan.withValue(plan) {
            engineError { () throws(KeychainStoreError) in _ = try DeviceKey.load(from: url, create: true) }
        }
        #expect(failure?.status == SecStatus.diskFull, "\(failure.map(String.init(describing:)) ?? "succeeded")")
        #expect(Self.contents(directory).isEmpty)
    }

    @Test("A failed fsync while creating the device key is errSecIO, and no file is left")
    func failedSyncDeviceKey() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("device-key")
        let plan = FaultPlan(.init(.fileSync, result: Self.EIO))
        let failure = FaultInjection.$plan.withValue(plan) {
            engineError { () throws(KeychainStoreError) in _ = try DeviceKey.load(from: url, create: true) }
        }
        #expect(failure?.status == SecStatus.io)
        #expect(Self.contents(directory).isEmpty)
        // Nothing was half-made: the next attempt creates the key.
        _ = try DeviceKey.load(from: url, create: true)
        #expect(Self.contents(directory) == ["device-key"])
    }

    @Test("A write fault while exporting a backup leaves no backup file, and the keychain is unchanged",
          arguments: [FaultPlan.Rule(.fileWrite, result: -ENOSPC), FaultPlan.Rule(.fileSync, result: EIO)])
    func backupFault(rule: FaultPlan.Rule) throws {
        let fixture = try ReliabilityFixture()
        defer { fixture.remove() }
        let file = try fixture.open()
        let before = try KeychainSnapshot(file)
        let backup = fixture.directory.appendingPathComponent("backup.keychain-backup")
        let plan = FaultPlan(rule)
        let failure = FaultInjection.$plan.withValue(plan) {
            engineError { () throws(KeychainStoreError) in try file.exportBackup(to: backup, password: "backup password") }
        }
        #expect(failure?.status == (rule.point == .fileSync ? SecStatus.io : SecStatus.diskFull))
        #expect(!FileManager.default.fileExists(atPath: backup.path))
        #expect(Self.contents(fixture.directory).allSatisfy { $0.hasPrefix("reliability.keychain-db") })
        #expect(try KeychainSnapshot(file) == before)
    }

    @Test("Short writes while exporting a backup are continued: the backup is whole and restores every item")
    func shortWriteBackup() throws {
        let fixture = try ReliabilityFixture()
        defer { fixture.remove() }
        let file = try fixture.open()
        let backup = fixture.directory.appendingPathComponent("backup.keychain-backup")
        let plan = FaultPlan(.init(.fileWrite, result: 9), .init(.fileWrite, result: 100))
        let exported = try FaultInjection.$plan.withValue(plan) { try file.exportBackup(to: backup, password: "backup password") }
        #expect(plan.fired(.fileWrite) == 2)
        #expect(exported > 0)
        let restored = try KeychainFile.open(at: fixture.directory.appendingPathComponent("restored.keychain-db"), deviceKey: .random())
        #expect(try restored.importBackup(from: backup, password: "backup password") == exported)
    }

    @Test("A fault while creating a keychain leaves no keychain file, and the next open creates a whole one",
          arguments: [FaultPlan.Rule(.random, result: EIO),
                      FaultPlan.Rule(.sqliteCommit, result: SQLiteCode.full),
                      FaultPlan.Rule(.sqliteStep, result: SQLiteCode.ioerrWrite, skip: 1, statements: .writes),
                      FaultPlan.Rule(.fileSync, result: EIO)])
    func keychainCreationFault(rule: FaultPlan.Rule) throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("new.keychain-db")
        let key = DeviceKey.random()
        let plan = FaultPlan(rule)
        let failure = FaultInjection.$plan.withValue(plan) {
            engineError { () throws(KeychainStoreError) in _ = try KeychainFile.open(at: url, deviceKey: key) }
        }
        #expect(plan.anyFired)
        let expected: Int32 = switch rule.point {
        case .random: SecStatus.allocate
        case .sqliteCommit: SecStatus.notAvailable
        default: SecStatus.io
        }
        #expect(failure?.status == expected, "\(failure.map(String.init(describing:)) ?? "succeeded")")
        #expect(Self.contents(directory).isEmpty, "left behind: \(Self.contents(directory))")
        let file = try KeychainFile.open(at: url, deviceKey: key)
        #expect(try file.integrityCheck())
        _ = try file.add(.genericPassword, attributes: ["acct": .string("a")], secret: Data("s".utf8), identity: .unconfigured)
    }

    @Test("A random-generator failure while creating the keychain id is errSecAllocate (-108)")
    func randomFailureIsAllocate() throws {
        let plan = FaultPlan(.init(.random, result: Self.EIO))
        let failure = FaultInjection.$plan.withValue(plan) {
            engineError { () throws(KeychainStoreError) in _ = try secureRandomBytes(16) }
        }
        #expect(failure?.status == SecStatus.allocate)
        #expect(try secureRandomBytes(16).count == 16)
    }
}
#endif
