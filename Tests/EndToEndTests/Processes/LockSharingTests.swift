import Foundation
import KeychainTestSupport
import Testing
import KeychainServices
import KeychainStore

/// One unlock serves every process of the user; one lock locks them all (the class keys are shared
/// through the kernel keyring, docs/architecture.md).
@Suite(.serialized) struct LockSharingTests {
    /// A keychain with a password, a device key in a file the worker can read, and one class A item.
    struct Fixture {
        let directory: URL
        let keychain: URL
        let environment: [String: String]
        let file: KeychainFile

        init(password: String = "pw", sharedKernelKeyring: Bool = true) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("lock-sharing-\(UUID().uuidString)")
            keychain = directory.appendingPathComponent("test.keychain-db")
            let keyFile = directory.appendingPathComponent("config/device-key")
            var environment = ProcessInfo.processInfo.environment
            environment["SWIFT_KEYCHAIN_DEVICE_KEY_FILE"] = keyFile.path
            if !sharedKernelKeyring { environment["SWIFT_KEYCHAIN_NO_KERNEL_KEYRING"] = "1" }
            self.environment = environment
            file = try KeychainFile.open(at: keychain, deviceKey: DeviceKey.load(from: keyFile, create: true))
            try file.setPassword(password, currentPassword: nil)
        }

        /// Runs the worker and returns its output lines.
        func worker(_ arguments: String...) throws -> [String] {
            let process = Process()
            process.executableURL = try workerURL()
            process.arguments = [arguments[0], keychain.path] + arguments.dropFirst()
            process.environment = environment
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            _ = process.waitForExit()
            return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        }

        func read(_ account: String) -> OSStatus {
            KeychainContext.withContext(KeychainContext(file: file, identity: .unconfigured)) {
                SecItemCopyMatching([kSecClass: kSecClassGenericPassword, kSecAttrAccount: account as NSString,
                                     kSecReturnData: kCFBooleanTrue!] as NSDictionary, nil)
            }
        }

        func cleanUp() {
            file.forgetSharedUnlockState()
            try? FileManager.default.removeItem(at: directory)
        }
    }

    static func workerURL() throws -> URL {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
                .deletingLastPathComponent().appendingPathComponent("keychain-test-worker"),
            Bundle.main.bundleURL.appendingPathComponent("keychain-test-worker"),
        ]
        let found = candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
        return try #require(found, "keychain-test-worker is not built; run `swift build --build-tests` first")
    }

    @Test("An unlock in one process is seen by another, and a lock in either locks both",
          .enabled(if: KeychainSharingProbe.kernelKeyring))
    func unlockAndLockAcrossProcesses() throws {
        let fixture = try Fixture()
        defer { fixture.cleanUp() }
        #expect(try fixture.worker("add", "a", "value", "ak") == ["status 0"])
        fixture.file.lock()
        #expect(try fixture.worker("read", "a") == ["status -25308"])
        try fixture.file.unlock(password: "pw")
        #expect(try fixture.worker("read", "a") == ["status 0", "value value"])
        #expect(try fixture.worker("lock") == ["ok"])
        #expect(fixture.read("a") == errSecInteractionNotAllowed)
        #expect(try fixture.worker("unlock", "wrong") == ["status -25293"])
        #expect(fixture.read("a") == errSecInteractionNotAllowed)
        #expect(try fixture.worker("unlock", "pw") == ["ok"])
        #expect(fixture.read("a") == errSecSuccess)
    }

    @Test("Without the kernel keyring each process keeps its own unlock, and says so")
    func perProcessFallback() throws {
        let fixture = try Fixture(sharedKernelKeyring: false)
        defer { fixture.cleanUp() }
        let sharing = try fixture.worker("sharing")
        #expect(sharing.first?.hasPrefix("per-process") == true)
        #expect(sharing.first?.contains("SWIFT_KEYCHAIN_NO_KERNEL_KEYRING") == true)
        // The worker's own process starts locked whatever this process did, and works after its unlock.
        #expect(try fixture.worker("add", "a", "value", "ak") == ["status -25308"])
        #expect(try fixture.worker("unlock", "pw") == ["ok"])
        #expect(try fixture.worker("add", "b", "value", "dk") == ["status 0"])
    }

    @Test("A password change killed at any moment leaves exactly the old or the new password working")
    func passwordChangeSurvivesKill() throws {
        let fixture = try Fixture(password: "first")
        defer { fixture.cleanUp() }
        KeychainContext.withContext(KeychainContext(file: fixture.file, identity: .unconfigured)) {
            #expect(SecItemAdd([kSecClass: kSecClassGenericPassword, kSecAttrAccount: "kept" as NSString,
                                kSecValueData: Data("v".utf8) as NSData] as NSDictionary, nil) == errSecSuccess)
        }
        var current = "first", other = "second"
        var generator = SystemRandomNumberGenerator()
        for round in 0..<12 {
            let process = Process()
            process.executableURL = try Self.workerURL()
            process.arguments = ["toggle-password", fixture.keychain.path, current, other]
            process.environment = fixture.environment
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            // Kill at a random point: before, during or after one or more changes.
            Thread.sleep(forTimeInterval: Double.random(in: 0.05...0.9, using: &generator))
            kill(process.processIdentifier, SIGKILL)
            _ = process.waitForExit()

            let reopened = try KeychainFile.open(at: fixture.keychain, deviceKey: DeviceKey.load(
                from: URL(fileURLWithPath: fixture.environment["SWIFT_KEYCHAIN_DEVICE_KEY_FILE"]!), create: false))
            #expect(try reopened.integrityCheck(), "round \(round)")
            let currentWorks = (try? reopened.unlock(password: current)) != nil
            let otherWorks = (try? reopened.unlock(password: other)) != nil
            #expect(currentWorks != otherWorks, "round \(round): exactly one password must open the keychain")
            if otherWorks { swap(&current, &other) }
            let found = KeychainContext.withContext(KeychainContext(file: reopened, identity: .unconfigured)) {
                SecItemCopyMatching([kSecClass: kSecClassGenericPassword, kSecAttrAccount: "kept" as NSString] as NSDictionary, nil)
            }
            #expect(found == errSecSuccess, "round \(round)")
        }
    }
}

enum KeychainSharingProbe {
    /// Whether this machine lets processes share state through the kernel keyring.
    static var kernelKeyring: Bool {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("probe-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        guard let file = try? KeychainFile.open(at: directory.appendingPathComponent("p.keychain-db"), deviceKey: .random()) else { return false }
        return file.unlockSharing == .kernelKeyring
    }
}
