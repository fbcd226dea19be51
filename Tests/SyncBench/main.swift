#if Sync  // built only with the Sync trait (Package.swift)
// keychain-sync-bench: the sync figures of BENCHMARKS.md ("Sync through PostgreSQL"), run by
// Benchmarks/sync.sh in a release build. In the root package (not Benchmarks/) because the sync
// engine is package-level API. It starts its own PostgreSQL server on a Unix socket in a
// temporary folder and stops it at the end.
//
//   keychain-sync-bench [ITEMS] [LATENCY-SAMPLES]      default 10000 and 20
import Foundation
import KeychainStore
import KeychainSync
import KeychainTestSupport

let itemCount = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 10_000 : 10_000
let latencySamples = CommandLine.arguments.count > 2 ? Int(CommandLine.arguments[2]) ?? 20 : 20

func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

@discardableResult
func run(_ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: arguments[0])
    process.arguments = Array(arguments.dropFirst())
    // A file, not a pipe: the server pg_ctl starts inherits the descriptors and never closes them.
    let outputURL = FileManager.default.temporaryDirectory.appendingPathComponent("kc-sync-bench-out-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
    let handle = try FileHandle(forWritingTo: outputURL)
    defer { try? FileManager.default.removeItem(at: outputURL) }
    process.standardOutput = handle
    process.standardError = handle
    try process.run()
    let exit = process.waitForExit()
    try handle.close()
    let text = (try? String(contentsOf: outputURL, encoding: .utf8)) ?? ""
    guard exit.terminationStatus == 0 else { throw BenchFailure(message: "\(arguments[0]) failed: \(text)") }
    return text.trimmingCharacters(in: .whitespacesAndNewlines)
}

struct BenchFailure: Error { let message: String }

/// A PostgreSQL 15 server in a temporary folder, as the tests start one.
struct Server {
    let folder: String
    let binaries = "/usr/lib/postgresql/15/bin"
    var asServer: [String] { getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--"] : [] }
    var url: String { "postgresql://bench@/postgres?host=\(folder)" }

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("kc-sync-bench-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        if getuid() == 0 { try run(["/bin/chown", "postgres:postgres", folder]) }
        try run(asServer + [binaries + "/initdb", "-D", folder + "/data", "-U", "bench", "-A", "trust", "-E", "UTF8"])
        // fsync stays on: the server's durability is part of what a sync costs.
        try run(asServer + [binaries + "/pg_ctl", "-D", folder + "/data", "-l", folder + "/log",
                            "-o", "-k \(folder) -c listen_addresses='' -p 5432", "-w", "start"])
    }

    func sql(_ statement: String) throws -> String {
        try run(["/usr/bin/psql", "-X", "-q", "-A", "-t", "-h", folder, "-U", "bench", "-d", "postgres", "-c", statement])
    }

    func stop() {
        _ = try? run(asServer + [binaries + "/pg_ctl", "-D", folder + "/data", "-m", "fast", "-w", "stop"])
        try? FileManager.default.removeItem(atPath: folder)
    }
}

struct Device {
    let folder: URL
    let deviceKey = DeviceKey.random()
    let file: KeychainFile
    let engine: SyncEngine

    init(_ name: String) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("kc-sync-bench-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let url = folder.appendingPathComponent("login.keychain-db")
        file = try KeychainFile.open(at: url, deviceKey: deviceKey)
        engine = try SyncEngine(keychainURL: url, deviceKey: deviceKey)
    }

    func add(_ account: String) throws {
        _ = try file.add(.genericPassword, attributes: [
            AttributeName.account: .string(account), AttributeName.service: .string("bench"),
            AttributeName.synchronizable: .integer(1),
        ], secret: Data("password for \(account)".utf8), identity: .administrator())
    }

    func has(_ account: String) throws -> Bool {
        try !file.find(ItemQuery(itemClass: .genericPassword, filters: [AttributeName.account: .string(account)], anySynchronizable: true),
                       identity: .administrator(), limit: 1, includeSecrets: false).isEmpty
    }
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
}

func bench(_ server: Server) async throws -> String {
let a = try Device("a"), b = try Device("b")
defer {
    try? FileManager.default.removeItem(at: a.folder)
    try? FileManager.default.removeItem(at: b.folder)
}

// 1. Local adds: each its own durable transaction, as SecItemAdd.
var start = now()
for index in 0..<itemCount { try a.add("item-\(index)") }
let localAdd = now() - start

// 2. The group, then the same items to the second device: a's push plus b's pull.
guard case .createdGroup(_, let group) = try await a.engine.join(urlText: server.url, deviceName: "a") else {
    throw BenchFailure(message: "the first device did not create the group")
}
guard case .pending(let fingerprint) = try await b.engine.join(urlText: server.url, deviceName: "b", groupFingerprint: group) else {
    throw BenchFailure(message: "the second device did not wait for approval")
}
_ = try await a.engine.approve(fingerprint)
start = now()
let pushReport = try await a.engine.syncNow()
let push = now() - start
start = now()
let pullReport = try await b.engine.syncNow()
let pull = now() - start
guard pushReport.pushed == itemCount, pullReport.applied == itemCount else {
    throw BenchFailure(message: "push \(pushReport), pull \(pullReport)")
}

// 3. Server size per item.
let tableBytes = Double(try server.sql("SELECT pg_total_relation_size('sync_records')")) ?? 0
let ciphertextBytes = Double(try server.sql("SELECT avg(octet_length(ciphertext)) FROM sync_records")) ?? 0

// 4. One change's latency to a device that listens (b runs the continuous loop keychaind runs),
// from just before a's add to the moment b's keychain file holds the item:
//   a. a runs the same loop (keychaind on both machines): a's add is all the writer does;
//   b. a runs `sync now` after its add (a machine without keychaind); the time of that round
//      and what follows it are reported apart, to show where the time goes.
let watcher = Task { try await b.engine.watch { _ in !Task.isCancelled } }
let writer = Task { try await a.engine.watch { _ in !Task.isCancelled } }
try await Task.sleep(nanoseconds: 500_000_000)
func waitFor(_ account: String) async throws {
    while try !b.has(account) { try await Task.sleep(nanoseconds: 1_000_000) }
}
var continuous: [Double] = []
for sample in 0..<latencySamples {
    let account = "continuous-\(sample)"
    let began = now()
    try a.add(account)
    try await waitFor(account)
    continuous.append(now() - began)
    // Let both loops finish the round's tail (state file, report) before the next sample.
    try await Task.sleep(nanoseconds: 100_000_000)
}
writer.cancel()
_ = try? await writer.value
var explicit: [Double] = [], explicitRound: [Double] = [], afterRound: [Double] = []
for sample in 0..<latencySamples {
    let account = "latency-\(sample)"
    let began = now()
    try a.add(account)
    _ = try await a.engine.syncNow()
    let pushed = now()
    try await waitFor(account)
    explicit.append(now() - began)
    explicitRound.append(pushed - began)
    afterRound.append(now() - pushed)
}
watcher.cancel()
func ms(_ seconds: Double) -> String { String(format: "%.0f ms", seconds * 1000) }

return """
    items: \(itemCount)
    local add of \(itemCount) items: \(String(format: "%.2f", localAdd)) s (\(String(format: "%.0f", localAdd / Double(itemCount) * 1e6)) µs each)
    push from the first device: \(String(format: "%.2f", push)) s
    pull into the second device: \(String(format: "%.2f", pull)) s
    to the second device (push + pull) / local add: \(String(format: "%.2f", (push + pull) / localAdd))×
    one change to a listening device, both devices syncing continuously (keychaind), median of \(latencySamples): \(ms(median(continuous))) (max \(ms(continuous.max() ?? 0)))
    one change to a listening device, writer runs sync now, median of \(latencySamples): \(ms(median(explicit))) (max \(ms(explicit.max() ?? 0))): its sync now \(ms(median(explicitRound))), then the listener \(ms(median(afterRound)))
    server bytes per item: \(String(format: "%.0f", tableBytes / Double(itemCount))) (table with indexes and TOAST), ciphertext \(String(format: "%.0f", ciphertextBytes))
    """
}

let server = try Server()
do {
    print(try await bench(server))
    server.stop()
} catch {
    FileHandle.standardError.write(Data("keychain-sync-bench: \(error)\n".utf8))
    server.stop()
    exit(1)
}
#endif
