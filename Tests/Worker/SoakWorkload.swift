import Foundation
import KeychainServices
import KeychainStore
import KeychainTestSupport

/// One process of the soak benchmark (scripts/soak.sh): a fixed number of mixed SecItem calls on
/// a keychain shared with the other processes, timing each.
///
/// Each worker owns accounts "wN-0…wN-99" (adds, updates, deletes and reads with a known
/// outcome) and all workers update a few shared accounts (contention). A call that fails with
/// errSecNotAvailable (-25291, SQLite busy past the timeout) is retried and counted. At the end
/// the worker writes its latencies (one line per call: microseconds, then the kind of call) and the
/// final state of its own accounts ("account version" or "account deleted"), and prints a summary
/// line.
enum SoakWorkload {
    static let sharedAccounts = 4

    /// soak KEYCHAIN WORKER OPERATIONS SEED OUTPUT-PREFIX
    static func run(arguments: [String]) -> Never {
        guard arguments.count >= 4, let worker = Int(arguments[0]), let operations = Int(arguments[1]),
              let seed = UInt64(arguments[2]) else {
            say("usage: soak KEYCHAIN WORKER OPERATIONS SEED OUTPUT-PREFIX")
            exit(64)
        }
        let prefix = arguments[3]
        var random = SeededRandom(seed: seed &+ UInt64(worker))
        var versions: [String: String?] = [:]
        var latencies: [(UInt64, String)] = []
        latencies.reserveCapacity(operations)
        var busyRetries = 0
        var failures: [OSStatus: Int] = [:]
        var counts: [String: Int] = [:]
        let start = DispatchTime.now().uptimeNanoseconds

        for index in 0..<operations {
            let roll = random.next() % 100
            let version = "w\(worker)o\(index)"
            let own = "w\(worker)-\(random.next() % 100)"
            let kind: String
            let expected: (String, String?)?
            let call: () -> OSStatus
            if roll < 10 {
                let shared = "shared-\(random.next() % UInt64(sharedAccounts))"
                kind = "shared-update"
                expected = nil
                call = { upsert(shared, version) }
            } else if roll < 45 {
                // A read checks its answer against this worker's own acknowledged writes.
                kind = "read"
                expected = nil
                let known = versions[own] ?? nil
                call = {
                    let (status, data) = read(own)
                    if let known { return data == Data("secret:\(own):\(known)".utf8) ? status : (status == errSecSuccess ? -1 : status) }
                    return status == errSecItemNotFound ? errSecSuccess : (status == errSecSuccess ? -1 : status)
                }
            } else if versions[own] == nil || versions[own]! == nil {
                kind = "add"
                expected = (own, version)
                call = { add(own, version) }
            } else if roll < 85 {
                kind = "update"
                expected = (own, version)
                call = { SecItemUpdate(query(own), changes(own, version) as CFDictionary) }
            } else {
                kind = "delete"
                expected = (own, nil)
                call = { SecItemDelete(query(own)) }
            }
            let began = DispatchTime.now().uptimeNanoseconds
            var status = call()
            while status == errSecNotAvailable {
                busyRetries += 1
                status = call()
            }
            latencies.append(((DispatchTime.now().uptimeNanoseconds - began) / 1000, kind))
            counts[kind, default: 0] += 1
            if status == errSecSuccess {
                if let (account, value) = expected { versions[account] = .some(value) }
            } else {
                failures[status, default: 0] += 1
            }
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let latencyText = latencies.map { "\($0.0) \($0.1)" }.joined(separator: "\n") + "\n"
        let stateText = versions.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value ?? "deleted")" }.joined(separator: "\n") + "\n"
        // The test reads both files; without them it could only report a missing file.
        for (path, text) in [(prefix + ".latencies", latencyText), (prefix + ".state", stateText)]
            where !FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) {
            say("cannot write \(path)")
            exit(1)
        }
        let failureText = failures.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: ",")
        let countText = counts.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        say("summary worker=\(worker) operations=\(operations) seconds=\(String(format: "%.2f", elapsed)) "
            + "busy-retries=\(busyRetries) failures=[\(failureText)] \(countText)")
        exit(failures.isEmpty ? 0 : 1)
    }

    static func query(_ account: String) -> CFDictionary {
        [kSecClass: kSecClassGenericPassword, kSecAttrAccount: account as NSString,
         kSecAttrService: "soak.example" as NSString] as NSDictionary
    }

    static func changes(_ account: String, _ version: String) -> [String: Any] {
        [kSecValueData as String: Data("secret:\(account):\(version)".utf8), kSecAttrLabel as String: "label:\(account):\(version)"]
    }

    static func add(_ account: String, _ version: String) -> OSStatus {
        var item = changes(account, version)
        item[kSecClass as String] = kSecClassGenericPassword
        item[kSecAttrAccount as String] = account
        item[kSecAttrService as String] = "soak.example"
        item[kSecAttrAccessible as String] = "dk"
        return SecItemAdd(item as CFDictionary, nil)
    }

    /// Update, or add when no process has added the shared item yet (a lost add race is retried
    /// as an update).
    static func upsert(_ account: String, _ version: String) -> OSStatus {
        var status = SecItemUpdate(query(account), changes(account, version) as CFDictionary)
        if status == errSecItemNotFound {
            status = add(account, version)
            if status == errSecDuplicateItem { status = SecItemUpdate(query(account), changes(account, version) as CFDictionary) }
        }
        return status
    }

    static func read(_ account: String) -> (OSStatus, Data?) {
        var result: CFTypeRef?
        let status = SecItemCopyMatching([kSecClass: kSecClassGenericPassword, kSecAttrAccount: account as NSString,
                                          kSecAttrService: "soak.example" as NSString,
                                          kSecReturnData: kCFBooleanTrue!] as NSDictionary, &result)
        return (status, result as? Data)
    }

    /// soak-verify KEYCHAIN STATE-FILE…: the keychain passes its integrity check and holds every
    /// worker's acknowledged final state; shared items carry one version in secret and label.
    static func verify(file: KeychainFile, arguments: [String]) -> Never {
        guard (try? file.integrityCheck()) == true else {
            say("verify failed: integrity check")
            exit(1)
        }
        var checked = 0, wrong: [String] = []
        for path in arguments {
            let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: " ").map(String.init)
                guard parts.count == 2 else { continue }
                let (status, data) = read(parts[0])
                let ok = parts[1] == "deleted" ? status == errSecItemNotFound
                    : data == Data("secret:\(parts[0]):\(parts[1])".utf8)
                if !ok { wrong.append("\(parts[0]) (\(status))") }
                checked += 1
            }
        }
        for index in 0..<sharedAccounts {
            let account = "shared-\(index)"
            var result: CFTypeRef?
            let status = SecItemCopyMatching([kSecClass: kSecClassGenericPassword, kSecAttrAccount: account as NSString,
                                              kSecAttrService: "soak.example" as NSString, kSecReturnData: kCFBooleanTrue!,
                                              kSecReturnAttributes: kCFBooleanTrue!] as NSDictionary, &result)
            let item = result as? [String: Any]
            let secret = (item?[kSecValueData as String] as? Data).map { String(decoding: $0, as: UTF8.self) }
            let label = item?[kSecAttrLabel as String] as? String
            if status != errSecSuccess || secret?.dropFirst(7) != label?.dropFirst(6) { wrong.append("\(account) (\(status))") }
            checked += 1
        }
        say(wrong.isEmpty ? "verify ok checked=\(checked)" : "verify failed \(wrong.count) of \(checked): \(wrong.prefix(5))")
        exit(wrong.isEmpty ? 0 : 1)
    }
}
