import Foundation
import KeychainTestSupport
import KeychainServices
import KeychainStore
import Testing

/// 10,000 random and malformed dictionaries, each sent to SecItemAdd, SecItemCopyMatching (with
/// and without a result pointer), SecItemUpdate (with another random dictionary) and
/// SecItemDelete, in a worker process so that a crash is reported with the dictionary that caused
/// it instead of ending the test run. The run happens once; each test checks one rule of it.
@Suite("Robustness: malformed dictionaries get a status, never a crash")
struct RobustnessTests {
    static let seed: UInt64 = 0x5EC_17E5
    static let count = 10_000

    /// The items stored before the run, under a group the fuzzing process does not hold.
    static var sentinels: [[String: Any]] {
        (0..<6).map { index in
            var item: [String: Any] = [kSecAttrAccount as String: "sentinel-\(index)",
                                       kSecAttrLabel as String: "sentinel label \(index)",
                                       kSecValueData as String: Data("sentinel secret \(index) ✓".utf8)]
            if index % 2 == 0 {
                item[kSecClass as String] = kSecClassGenericPassword
                item[kSecAttrService as String] = "sentinel.example"
            } else {
                item[kSecClass as String] = kSecClassInternetPassword
                item[kSecAttrServer as String] = "sentinel.example"
                item[kSecAttrPort as String] = 443
            }
            return item
        }
    }

    struct Run: Sendable {
        let home: HermeticHome
        let status: Int32
        let lines: [String]
        let output: String

        var summary: String? { lines.last { $0.hasPrefix("summary ") } }
        var lastStarted: String? { lines.last { $0.hasPrefix("at ") } }
        /// The crash message and the frames in this package's sources, from the worker's output.
        var crashReport: String {
            output.split(separator: "\n").filter {
                $0.contains("Fatal error") || $0.contains("crashed") || $0.contains("/Sources/") || $0.contains("/Tests/")
            }.prefix(20).joined(separator: "\n")
        }

        func field(_ name: String) -> String? {
            guard let summary else { return nil }
            for part in summary.split(separator: " ") where part.hasPrefix(name + "=") {
                return String(part.dropFirst(name.count + 1))
            }
            return nil
        }
    }

    static let run: Result<Run, ProofFailure> = {
        do {
            let home = try HermeticHome()
            let context = try home.openKeychain(identity: RobustnessWorkload.sentinelIdentity)
            for item in sentinels {
                let status = KeychainContext.withContext(context) { SecItemAdd(item as CFDictionary, nil) }
                guard status == errSecSuccess else { return .failure(ProofFailure("sentinel add failed: \(status)")) }
            }
            let log = home.root.appendingPathComponent("robustness.log")
            let output = home.root.appendingPathComponent("robustness.out")
            let process = try WorkerProcess.start(role: "robustness", test: "robustness", parameters: [
                "LOG": log.path, "SEED": String(seed), "COUNT": String(count),
                "KEYCHAIN": home.keychainURL.path, "DEVICE_KEY": home.deviceKeyURL.path,
            ], output: output)
            let exit = process.waitForExit()
            let lines = ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
            return .success(Run(home: home, status: exit.terminationStatus, lines: lines,
                                output: (try? String(contentsOf: output, encoding: .utf8)) ?? ""))
        } catch {
            return .failure(ProofFailure("could not run the robustness worker: \(error)"))
        }
    }()

    @Test("Every one of the 10,000 dictionaries gets a status from all four functions, and the process does not crash")
    func noCrash() throws {
        let run = try Self.run.get()
        #expect(run.status == 0 && run.lines.last == "done",
                "the worker died after starting dictionary \(run.lastStarted ?? "?") of seed \(Self.seed):\n\(run.crashReport)")
        #expect(run.field("dictionaries") == String(Self.count))
        #expect(run.field("calls") == String(Self.count * 5))
    }

    @Test("Every status returned is an errSec code the module declares")
    func knownStatuses() throws {
        let run = try Self.run.get()
        #expect(run.field("unknown") == "[]", "\(run.summary ?? "no summary")")
    }

    @Test("A call that fails leaves its result pointer's target untouched")
    func noResultOnFailure() throws {
        let run = try Self.run.get()
        #expect(run.field("resultOnFailure") == "0", "\(run.summary ?? "no summary")")
    }

    @Test("The run reached the engine: some dictionaries were valid enough to succeed, and many were refused")
    func runWasNotTrivial() throws {
        let run = try Self.run.get()
        let histogram = (run.field("statuses") ?? "").split(separator: ",").reduce(into: [Int32: Int]()) { table, pair in
            let parts = pair.split(separator: ":")
            if parts.count == 2, let status = Int32(parts[0]), let count = Int(parts[1]) { table[status] = count }
        }
        #expect((histogram[errSecSuccess] ?? 0) > 50, "\(histogram)")
        #expect((histogram[errSecParam] ?? 0) > 1000, "\(histogram)")
        #expect((histogram[errSecItemNotFound] ?? 0) > 100, "\(histogram)")
        #expect(histogram.count >= 5, "few distinct statuses: \(histogram)")
    }

    @Test("Afterwards the keychain file passes SQLite's integrity check")
    func integrityAfterwards() throws {
        let run = try Self.run.get()
        let context = try run.home.openKeychain()
        #expect(try context.file.integrityCheck())
    }

    @Test("Afterwards every item stored before the run is intact, attributes and data")
    func sentinelsIntact() throws {
        let run = try Self.run.get()
        let context = try run.home.openKeychain(identity: RobustnessWorkload.sentinelIdentity)
        for sentinel in Self.sentinels {
            var query = sentinel
            query[kSecValueData as String] = nil
            query[kSecReturnData as String] = true
            query[kSecReturnAttributes as String] = true
            var result: CFTypeRef?
            let status = KeychainContext.withContext(context) { SecItemCopyMatching(query as CFDictionary, &result) }
            #expect(status == errSecSuccess, "\(sentinel[kSecAttrAccount as String]!)")
            let item = result as? [String: Any] ?? [:]
            #expect(item[kSecValueData as String] as? Data == sentinel[kSecValueData as String] as? Data)
            #expect(item[kSecAttrLabel as String] as? String == sentinel[kSecAttrLabel as String] as? String)
            #expect(item[kSecAttrAccessGroup as String] as? String == "sentinel.group")
        }
    }

    @Test("Afterwards the keychain still works for the process that sent the garbage")
    func stillUsable() throws {
        let run = try Self.run.get()
        let context = try run.home.openKeychain(identity: RobustnessWorkload.fuzzIdentity)
        let item: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "after-the-storm",
                                   kSecAttrService as String: "robustness.example", kSecValueData as String: Data("calm".utf8)]
        var result: CFTypeRef?
        let statuses = KeychainContext.withContext(context) {
            [SecItemAdd(item as CFDictionary, nil),
             SecItemCopyMatching([kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "after-the-storm",
                                  kSecAttrService as String: "robustness.example", kSecReturnData as String: true] as CFDictionary, &result),
             SecItemDelete([kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "after-the-storm",
                            kSecAttrService as String: "robustness.example"] as CFDictionary)]
        }
        #expect(statuses == [errSecSuccess, errSecSuccess, errSecSuccess])
        #expect(result as? Data == Data("calm".utf8))
    }
}
