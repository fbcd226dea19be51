import Foundation
@testable import KeychainStore
import KeychainTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Secrets in memory and on disk: what a process that used the keychain still holds
/// after `lock()`, and what the keychain leaves to child processes and temporary files.
@Suite("Secrets in memory and on disk", .serialized)
struct ReliabilitySecretsTests {
    static let password = "probe password Vq3"
    static let secret = "MEMPROBE-secret-9fK2xQ7wLm4Tz8Rb1Nc6Yh3Jd5Gs0Pv"

    /// The worker's memory scanned twice: after it unlocked and read the secret, and after it
    /// locked. Counts per needle.
    struct Probe: Sendable {
        let beforeLock: [String: Int]
        let afterLock: [String: Int]
    }

    static func workerExecutable() throws -> URL {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        let url = folder.appendingPathComponent("keychain-test-worker")
        try #require(FileManager.default.isExecutableFile(atPath: url.path), "keychain-test-worker is not built")
        return url
    }

    static func probe(environment extra: [String: String] = [:]) throws -> Probe {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("swift-keychain-memory-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let keychain = directory.appendingPathComponent("memory.keychain-db")
        let keyFile = directory.appendingPathComponent("device-key")
        let deviceKey = try DeviceKey.load(from: keyFile, create: true)
        // A freed heap block loses its first 16 bytes to the allocator's free-list links, so the
        // tails of the secret and password are searched too.
        var needles: [String: Data] = ["secret": Data(secret.utf8), "secret tail": Data(secret.utf8.suffix(24)),
                                       "password": Data(password.utf8), "password tail": Data(password.utf8.suffix(12))]
        do {
            let file = try KeychainFile.open(at: keychain, deviceKey: deviceKey)
            try file.setPassword(password, currentPassword: nil)
            _ = try file.add(.genericPassword, attributes: ["acct": .string("probe"), "pdmn": .string("ak")],
                             secret: Data(secret.utf8), identity: .unconfigured)
            // The class A keys, which must leave the process at lock.
            for protection in Keybag.unlockedClasses {
                let key = try file.withState { state throws(KeychainStoreError) in try state.keybag.key(for: protection) }
                let bytes = key.withUnsafeBytes { Data($0) }
                needles["class key \(protection.pdmn)"] = bytes
                needles["class key \(protection.pdmn) tail"] = bytes.suffix(16)
            }
            // The key derived from the password, which unwraps the class keys at unlock.
            let passwordKey = try file.withState { state throws(KeychainStoreError) -> Data in
                try state.passwordKey(password).withUnsafeBytes { Data($0) }
            }
            needles["password key"] = passwordKey
            needles["password key tail"] = passwordKey.suffix(16)
            file.forgetSharedUnlockState()
        }

        let process = Process()
        process.executableURL = try workerExecutable()
        process.arguments = ["memory-probe", keychain.path, "probe"]
        var environment = ["PATH": "/usr/bin:/bin", "SWIFT_KEYCHAIN_DEVICE_KEY_FILE": keyFile.path,
                           "SWIFT_KEYCHAIN_NO_KERNEL_KEYRING": "1"]
        environment.merge(extra) { $1 }
        process.environment = environment
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        defer {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
        func send(_ line: String) throws { try input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8)) }
        func expectLine(_ prefix: String) throws {
            var line = Data()
            while true {
                let byte = output.fileHandleForReading.readData(ofLength: 1)
                guard let first = byte.first else { throw MemoryScan.ScanError("the worker ended before saying \(prefix)") }
                if first == 0x0A { break }
                line.append(first)
            }
            let text = String(decoding: line, as: UTF8.self)
            guard text.hasPrefix(prefix) else { throw MemoryScan.ScanError("the worker said \(text), not \(prefix)") }
        }
        try send(password)
        try expectLine("read \(secret.utf8.count)")
        let before = try MemoryScan.count(needles, in: process.processIdentifier)
        try send("lock")
        try expectLine("locked")
        let after = try MemoryScan.count(needles, in: process.processIdentifier)
        return Probe(beforeLock: before, afterLock: after)
    }

    static let defaultProbe = Result { try probe() }
    /// The same run with the allocator scrubbing every freed block (glibc: no per-thread cache,
    /// freed bytes overwritten), so that what remains is only what is still in use.
    static let scrubbedProbe = Result { try probe(environment: ["GLIBC_TUNABLES": "glibc.malloc.tcache_count=0:glibc.malloc.perturb=165"]) }

    static let keyNeedles = ["class key ak", "class key aku", "class key akpu", "password key"]

    @Test("The scan works: before lock it finds the secret just read and the class A keys", .disabled(if: MemoryScan.underSanitizer, "a sanitizer's allocator decides what freed memory holds"))
    func scannerFindsWhatIsThere() throws {
        let probe = try Self.defaultProbe.get()
        #expect((probe.beforeLock["secret tail"] ?? 0) > 0, "\(probe.beforeLock)")
        for name in Self.keyNeedles where name != "password key" {
            #expect((probe.beforeLock[name] ?? 0) > 0, "\(name): \(probe.beforeLock)")
        }
    }

    @Test("After lock no byte string of a class A key is left in the process, in use or freed", .disabled(if: MemoryScan.underSanitizer, "a sanitizer's allocator decides what freed memory holds"))
    func classKeysLeaveAtLock() throws {
        let probe = try Self.defaultProbe.get()
        for name in Self.keyNeedles where name != "password key" {
            #expect(probe.afterLock[name] == 0, "\(name): \(probe.afterLock)")
            #expect(probe.afterLock[name + " tail"] == 0, "\(name) (tail): \(probe.afterLock)")
        }
    }

    @Test("After lock no byte string of the password-derived key is left in the process, in use or freed", .disabled(if: MemoryScan.underSanitizer, "a sanitizer's allocator decides what freed memory holds"))
    func passwordKeyLeavesAtLock() throws {
        let probe = try Self.defaultProbe.get()
        #expect(probe.afterLock["password key"] == 0, "\(probe.afterLock)")
        // PasswordKeyParameters.deriveKey builds the key from `Data(mac.finalize())` and feeds
        // the scrypt output through `Data(...)`: heap copies freed without zeroing (reported;
        // Crypto/PasswordKey.swift is not this suite's to change).
        withKnownIssue("a freed Data copy of the derived key lingers until malloc reuses it", isIntermittent: true) {
            #expect(probe.afterLock["password key tail"] == 0, "\(probe.afterLock)")
        }
    }

    @Test("After lock nothing in use holds the secret read before it or the password (freed memory scrubbed)", .disabled(if: MemoryScan.underSanitizer, "a sanitizer's allocator decides what freed memory holds"))
    func nothingInUseAfterLock() throws {
        let probe = try Self.scrubbedProbe.get()
        // The run is sound: the secret and keys were there before lock.
        #expect((probe.beforeLock["class key ak"] ?? 0) > 0)
        for (name, count) in probe.afterLock {
            #expect(count == 0, "\(name) is still in use after lock: \(probe.afterLock)")
        }
    }

    @Test("After lock, freed memory no longer holds the secret read before it (known: it does until reused; SECURITY.md)", .disabled(if: MemoryScan.underSanitizer, "a sanitizer's allocator decides what freed memory holds"))
    func freedMemoryAfterLock() throws {
        let probe = try Self.defaultProbe.get()
        withKnownIssue("freed heap blocks keep a copy of a secret until malloc reuses them", isIntermittent: true) {
            #expect(probe.afterLock["secret"] == 0 && probe.afterLock["secret tail"] == 0, "\(probe.afterLock)")
            #expect(probe.afterLock["password"] == 0 && probe.afterLock["password tail"] == 0, "\(probe.afterLock)")
        }
    }

    /// The descriptors this process holds on `path` and its companions: (fd, flags from fdinfo).
    static func descriptors(of path: String) throws -> [(Int32, Int)] {
        var found: [(Int32, Int)] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") {
            guard let fd = Int32(name),
                  let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(name)"),
                  target.hasPrefix(path) else { continue }
            let info = try String(contentsOfFile: "/proc/self/fdinfo/\(name)", encoding: .utf8)
            let flags = info.split(separator: "\n").first { $0.hasPrefix("flags:") }
                .flatMap { Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces), radix: 8) } ?? 0
            found.append((fd, flags))
        }
        return found
    }

    @Test("Every descriptor the keychain holds (file, WAL, shared memory) is close-on-exec, so child processes inherit none")
    func descriptorsAreCloseOnExec() throws {
        let keychain = try TestKeychain()
        _ = try keychain.file.add(.genericPassword, attributes: ["acct": .string("fd")], secret: Data("s".utf8), identity: .unconfigured)
        let descriptors = try Self.descriptors(of: keychain.file.url.path)
        // The file, its WAL and its shared-memory index.
        #expect(descriptors.count >= 3, "\(descriptors)")
        for (fd, flags) in descriptors {
            #expect(flags & Int(O_CLOEXEC) != 0, "descriptor \(fd) is inherited by exec (flags \(String(flags, radix: 8)))")
            #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0)
        }
    }

    @Test("SQLite keeps its temporary tables, indexes and journals in memory, never in a temporary file")
    func temporaryStorageInMemory() throws {
        let keychain = try TestKeychain()
        let (store, options) = try keychain.file.withState { state throws(KeychainStoreError) -> (Int64, [String]) in
            let pragma = try state.db.statement("PRAGMA temp_store")
            _ = try pragma.step()
            let store = pragma.int64(0)
            var options: [String] = []
            let list = try state.db.statement("PRAGMA compile_options")
            while try list.step() { options.append(list.text(0) ?? "") }
            return (store, options)
        }
        #expect(store == 2, "temp_store is \(store), not MEMORY")
        // SQLITE_TEMP_STORE=0 would make SQLite ignore the pragma and always use files.
        #expect(!options.contains("TEMP_STORE=0"), "\(options.filter { $0.hasPrefix("TEMP_STORE") })")
    }
}
