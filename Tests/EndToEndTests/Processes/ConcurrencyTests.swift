import Foundation
import KeychainTestSupport
import KeychainServices
import KeychainStore
import Testing

/// Several processes use one keychain file at once. Every call that returned success is
/// reflected in the final state, no call fails because another process was busy, and no primary
/// key ever has two rows.
@Suite("Concurrency across processes", .serialized)
struct ConcurrencyTests {
    static let workers = 4
    static let operations = 400

    /// Starts `workers` worker processes on a fresh keychain, releases them together, waits for
    /// them, and returns each worker's log entries plus the keychain for inspection.
    static func runWorkers(mode: String) throws -> (entries: [[ConcurrencyWorkload.Entry]], context: KeychainContext, home: HermeticHome) {
        let home = try HermeticHome()
        // Create the keychain and its device key before the workers race to open it.
        _ = try home.openKeychain()
        let start = home.root.appendingPathComponent("start")
        var processes: [(Process, URL, URL)] = []
        for worker in 0..<workers {
            let log = home.root.appendingPathComponent("worker-\(worker).log")
            let output = home.root.appendingPathComponent("worker-\(worker).out")
            let process = try WorkerProcess.start(role: "concurrency", test: "concurrency", parameters: [
                "WORKER": String(worker), "LOG": log.path, "MODE": mode, "OPERATIONS": String(operations),
                "KEYCHAIN": home.keychainURL.path, "DEVICE_KEY": home.deviceKeyURL.path, "START": start.path,
            ], output: output)
            processes.append((process, log, output))
        }
        _ = FileManager.default.createFile(atPath: start.path, contents: nil)
        var entries: [[ConcurrencyWorkload.Entry]] = []
        for (worker, (process, log, output)) in processes.enumerated() {
            let exit = process.waitForExit()
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            let lines = text.split(separator: "\n")
            #expect(exit.terminationStatus == 0 && lines.last == "done",
                    "worker \(worker) failed: \((try? String(contentsOf: output, encoding: .utf8)) ?? "")")
            entries.append(lines.dropLast().compactMap(ConcurrencyWorkload.Entry.init(line:)))
        }
        // Inspect through a fresh connection, as a process started now would.
        return (entries, try home.openKeychain(), home)
    }

    /// Every shared item of `server`: (account, value) per row.
    static func rows(server: String, in context: KeychainContext) -> [(String, String)] {
        var result: CFTypeRef?
        let status = KeychainContext.withContext(context) {
            SecItemCopyMatching([kSecClass as String: kSecClassInternetPassword, kSecAttrServer as String: server,
                                 kSecMatchLimit as String: kSecMatchLimitAll, kSecReturnAttributes as String: true,
                                 kSecReturnData as String: true] as CFDictionary, &result)
        }
        guard status == errSecSuccess, let items = result as? [[String: Any]] else { return [] }
        return items.map { ($0[kSecAttrAccount as String] as? String ?? "?",
                            String(decoding: $0[kSecValueData as String] as? Data ?? Data(), as: UTF8.self)) }
    }

    @Test("Four processes adding, updating and deleting their own items at once: every result is what a lone process would get, and the final state holds every acknowledged change")
    func privateItemsLoseNothing() throws {
        let (entries, context, home) = try Self.runWorkers(mode: "mixed")
        var expectedFinal: [String: String] = [:]
        // Violations are collected and reported together: one broken run can produce hundreds.
        var violations: [String] = []
        for (worker, log) in entries.enumerated() {
            #expect(log.count == Self.operations, "worker \(worker) logged \(log.count) calls")
            var model: [String: String] = [:]
            for entry in log where !entry.shared {
                let present = model[entry.account]
                let expected: OSStatus
                switch entry.operation {
                case "add": expected = present == nil ? errSecSuccess : errSecDuplicateItem
                default: expected = present == nil ? errSecItemNotFound : errSecSuccess
                }
                if entry.status != expected { violations.append("worker \(worker): \(entry.line), expected \(expected)") }
                if entry.operation == "read" && entry.readValue != present {
                    violations.append("worker \(worker): \(entry.line), expected to read \(present ?? "nothing")")
                }
                guard entry.status == errSecSuccess else { continue }
                switch entry.operation {
                case "add", "update": model[entry.account] = entry.value
                case "delete": model[entry.account] = nil
                default: break
                }
            }
            expectedFinal.merge(model) { $1 }
        }
        #expect(violations.isEmpty, "\(violations.count) calls differ from a lone process's results, e.g.\n\(violations.prefix(8).joined(separator: "\n"))")
        // The final state, read by another process: exactly the acknowledged private values.
        var result: CFTypeRef?
        let status = KeychainContext.withContext(context) {
            SecItemCopyMatching([kSecClass as String: kSecClassGenericPassword,
                                 kSecAttrService as String: ConcurrencyWorkload.service,
                                 kSecMatchLimit as String: kSecMatchLimitAll, kSecReturnAttributes as String: true,
                                 kSecReturnData as String: true] as CFDictionary, &result)
        }
        #expect(status == (expectedFinal.isEmpty ? errSecItemNotFound : errSecSuccess))
        let items = (result as? [[String: Any]]) ?? []
        var final: [String: String] = [:]
        for item in items {
            let account = item[kSecAttrAccount as String] as? String ?? "?"
            #expect(final[account] == nil, "two rows for account \(account)")
            final[account] = String(decoding: item[kSecValueData as String] as? Data ?? Data(), as: UTF8.self)
        }
        #expect(final == expectedFinal)
        #expect(try context.file.integrityCheck())
        withExtendedLifetime(home) {}
    }

    @Test("Four processes racing on the same items: each item has at most one row, and adds minus deletes that succeeded equals what is left")
    func sharedItemsStayConsistent() throws {
        let (entries, context, home) = try Self.runWorkers(mode: "mixed")
        let all = entries.flatMap { $0 }.filter(\.shared)
        #expect(!all.isEmpty)
        let expectedStatuses: [String: Set<OSStatus>] = [
            "add": [errSecSuccess, errSecDuplicateItem], "update": [errSecSuccess, errSecItemNotFound],
            "delete": [errSecSuccess, errSecItemNotFound], "read": [errSecSuccess, errSecItemNotFound],
        ]
        let unexpected = all.filter { expectedStatuses[$0.operation]?.contains($0.status) != true }
        #expect(unexpected.isEmpty, "\(unexpected.count) calls got a status no lone process could, e.g.\n\(unexpected.prefix(8).map(\.line).joined(separator: "\n"))")
        let rows = Self.rows(server: ConcurrencyWorkload.sharedServer, in: context)
        for key in 0..<ConcurrencyWorkload.sharedKeys {
            let account = "k\(key)"
            let calls = all.filter { $0.account == account && $0.status == errSecSuccess }
            let adds = calls.filter { $0.operation == "add" }.count
            let deletes = calls.filter { $0.operation == "delete" }.count
            let present = rows.filter { $0.0 == account }
            #expect(present.count <= 1, "\(present.count) rows for \(account)")
            #expect(adds - deletes == present.count, "\(account): \(adds) adds, \(deletes) deletes succeeded, \(present.count) rows left")
            // What is there was written by a call that succeeded.
            let written = Set(calls.filter { $0.operation == "add" || $0.operation == "update" }.map(\.value))
            for (_, value) in present {
                #expect(written.contains(value), "\(account) holds \(value), which no successful call wrote")
            }
            // Each successful read saw a value some call wrote.
            let phantom = all.filter {
                $0.account == account && $0.operation == "read" && $0.status == errSecSuccess && !written.contains($0.readValue ?? "")
            }
            #expect(phantom.isEmpty, "reads of values no successful call wrote: \(phantom.prefix(5).map(\.line))")
        }
        #expect(try context.file.integrityCheck())
        withExtendedLifetime(home) {}
    }

    @Test("Four processes adding the same items at the same moment: exactly one add per item succeeds, the rest get errSecDuplicateItem")
    func raceToAdd() throws {
        let (entries, context, home) = try Self.runWorkers(mode: "race")
        let rows = Self.rows(server: ConcurrencyWorkload.raceServer, in: context)
        #expect(rows.count == ConcurrencyWorkload.raceKeys)
        for key in 0..<ConcurrencyWorkload.raceKeys {
            let account = "r\(key)"
            let calls = entries.flatMap { $0 }.filter { $0.account == account }
            #expect(calls.count == Self.workers)
            let winners = calls.filter { $0.status == errSecSuccess }
            #expect(winners.count == 1, "\(account): \(winners.count) adds succeeded")
            #expect(calls.filter { $0.status == errSecDuplicateItem }.count == Self.workers - 1,
                    "\(account): \(calls.map(\.status))")
            let stored = rows.filter { $0.0 == account }.map(\.1)
            #expect(stored == winners.map(\.value))
        }
        #expect(try context.file.integrityCheck())
        withExtendedLifetime(home) {}
    }
}
