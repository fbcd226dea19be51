import Foundation
import KeychainServices
import KeychainStore
import KeychainTestSupport

/// What one worker process does in the concurrency proof, and the log line format it writes.
///
/// Each worker has private generic passwords (accounts `w<worker>-k<n>`, touched by it alone, so
/// the outcome of each call is predictable) and shares internet passwords (server
/// `shared.example`, accounts `k<n>`) with every other worker, so that they race on the same
/// primary keys. Every call is logged as `<op> <scope> <account> <value> <status> <read value>`.
enum ConcurrencyWorkload {
    static let service = "proof.concurrency"
    static let sharedServer = "shared.example"
    static let raceServer = "race.example"
    static let privateKeys = 8
    static let sharedKeys = 4
    static let raceKeys = 30

    struct Entry {
        var operation: String
        var shared: Bool
        var account: String
        var value: String
        var status: OSStatus
        var readValue: String?

        var line: String {
            "\(operation) \(shared ? "shared" : "private") \(account) \(value) \(status) \(readValue ?? "-")"
        }

        init(operation: String, shared: Bool, account: String, value: String, status: OSStatus, readValue: String?) {
            (self.operation, self.shared, self.account, self.value, self.status, self.readValue) =
                (operation, shared, account, value, status, readValue)
        }

        init?(line: Substring) {
            let fields = line.split(separator: " ").map(String.init)
            guard fields.count == 6, let status = OSStatus(fields[4]) else { return nil }
            self.init(operation: fields[0], shared: fields[1] == "shared", account: fields[2], value: fields[3],
                      status: status, readValue: fields[5] == "-" ? nil : fields[5])
        }
    }

    static func query(shared: Bool, account: String, server: String = sharedServer) -> [String: Any] {
        shared
            ? [kSecClass as String: kSecClassInternetPassword, kSecAttrServer as String: server, kSecAttrAccount as String: account]
            : [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service, kSecAttrAccount as String: account]
    }

    /// Waits for the parent's signal, so that all workers start at about the same moment.
    static func waitForStart(_ signal: URL) throws {
        for _ in 0..<12_000 {
            if FileManager.default.fileExists(atPath: signal.path) { return }
            usleep(5_000)
        }
        throw ProofFailure("the start signal never came")
    }

    /// Mixed adds, updates, deletes and reads on private and shared items.
    static func mixed(worker: Int, operations: Int, log: WorkerLog) {
        var random = SeededRandom(seed: 0xC0FFEE &+ UInt64(worker) &* 7919)
        for n in 0..<operations {
            let shared = random.next() % 2 == 0
            let account = shared ? "k\(random.next() % UInt64(sharedKeys))" : "w\(worker)-k\(random.next() % UInt64(privateKeys))"
            let value = "w\(worker)-op\(n)-\(random.token(length: 8))"
            let base = query(shared: shared, account: account)
            let roll = random.next() % 20
            var entry: Entry
            switch roll {
            case 0..<7:
                var add = base
                add[kSecValueData as String] = Data(value.utf8)
                entry = Entry(operation: "add", shared: shared, account: account, value: value,
                              status: SecItemAdd(add as CFDictionary, nil), readValue: nil)
            case 7..<14:
                let status = SecItemUpdate(base as CFDictionary, [kSecValueData as String: Data(value.utf8)] as CFDictionary)
                entry = Entry(operation: "update", shared: shared, account: account, value: value, status: status, readValue: nil)
            case 14..<18:
                entry = Entry(operation: "delete", shared: shared, account: account, value: "-",
                              status: SecItemDelete(base as CFDictionary), readValue: nil)
            default:
                var read = base
                read[kSecReturnData as String] = true
                var result: CFTypeRef?
                let status = SecItemCopyMatching(read as CFDictionary, &result)
                entry = Entry(operation: "read", shared: shared, account: account, value: "-", status: status,
                              readValue: (result as? Data).map { String(decoding: $0, as: UTF8.self) })
            }
            log.write(entry.line)
        }
    }

    /// Every worker adds the same items in the same order: exactly one add per item may win.
    static func race(worker: Int, log: WorkerLog) {
        for key in 0..<raceKeys {
            var add = query(shared: true, account: "r\(key)", server: raceServer)
            let value = "w\(worker)"
            add[kSecValueData as String] = Data(value.utf8)
            let entry = Entry(operation: "add", shared: true, account: "r\(key)", value: value,
                              status: SecItemAdd(add as CFDictionary, nil), readValue: nil)
            log.write(entry.line)
        }
    }
}
