import Foundation

// keychain-bench: the measurements behind BENCHMARKS.md. Standard output carries one JSON
// document; progress goes to standard error. Always build it in release mode:
//     cd Benchmarks && swift build -c release && .build/release/keychain-bench core --dir /var/tmp/kb
let usage = """
    usage: keychain-bench core   --dir DIR [--sizes 100,1000,10000,100000] [--ops 1000] [--memory-lookups 2000] [--hook CMD]
           keychain-bench lock   --dir DIR [--items 1000] [--reads 4000] [--reps 10]
           keychain-bench keys   --dir DIR [--ops 2000] [--rounds 10]
           keychain-bench scale  --dir DIR [--items 1000] [--seconds 3] [--reps 5]
           keychain-bench lookup-bound --dir DIR [--items 1000] [--ops 2000] [--rounds 5]
           keychain-bench write-bound --dir DIR [--items 1000] [--ops 2000] [--pause-us 0]
           keychain-bench result-cast --dir DIR [--sizes 24,1024,4096] [--ops 2000] [--rounds 5]
           keychain-bench keys-profile --dir DIR --what create|transient|add [--count 200]
           keychain-bench fill   [--system ours|floor] --keychain FILE [--device-key FILE] --items N
           keychain-bench memory-child --keychain FILE --device-key FILE --items N --lookups L
           keychain-bench update-child --keychain FILE --device-key FILE --items N --updates U
           keychain-bench footprint-child [--system ours|floor] --keychain FILE [--device-key FILE] --items N --op add|update|lookup [--calls 30]
    """

struct Options {
    var values: [String: String] = [:]
    init(_ arguments: ArraySlice<String>) throws {
        var iterator = arguments.makeIterator()
        while let name = iterator.next() {
            guard name.hasPrefix("--"), let value = iterator.next() else { throw BenchFailure(usage) }
            values[String(name.dropFirst(2))] = value
        }
    }
    func string(_ name: String, _ fallback: String? = nil) throws -> String {
        guard let value = values[name] ?? fallback else { throw BenchFailure("missing --\(name)\n" + usage) }
        return value
    }
    func int(_ name: String, _ fallback: Int? = nil) throws -> Int {
        guard let value = try Int(string(name, fallback.map(String.init))) else { throw BenchFailure("--\(name) wants a number") }
        return value
    }
    func ints(_ name: String, _ fallback: String) throws -> [Int] {
        try string(name, fallback).split(separator: ",").map {
            guard let value = Int($0) else { throw BenchFailure("--\(name) wants numbers") }
            return value
        }
    }
}

struct CoreResult: Codable {
    var ours: [SizeResult]
    var floor: [SizeResult]
    var memory: [MemoryResult]
    var whatif: [WhatIfResult]
    var whatif_writes: WriteWhatIfResult?
    var paired: [PairedResult]
    var sqlite_version: String
}

func emit(_ value: some Encodable) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    FileHandle.standardOutput.write(try encoder.encode(value))
    FileHandle.standardOutput.write(Data("\n".utf8))
}

func main() throws {
    let arguments = CommandLine.arguments
    guard arguments.count >= 2 else { throw BenchFailure(usage) }
    let options = try Options(arguments.dropFirst(2))
    switch arguments[1] {
    case "core":
        let directory = try options.string("dir")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let sizes = try options.ints("sizes", "100,1000,10000,100000")
        let operations = try options.int("ops", 1000)
        let lookups = try options.int("memory-lookups", 2000)
        let keychain = directory + "/bench.keychain-db", deviceKey = directory + "/device-key"
        let ours = try SecItemSystem(path: keychain, deviceKeyPath: deviceKey)
        var memory: [MemoryResult] = []
        var oursResults: [SizeResult] = []
        var floorResults: [SizeResult] = []
        var paired: [PairedResult] = []
        let floor = try SQLiteFloorSystem(path: directory + "/floor.sqlite")
        // Sizes one at a time, ours then the floor, so both see the disk in the same state of the run.
        var filled = 0
        for n in sizes.sorted() {
            let a = try runWorkload(GrowingFrom(ours, filled), sizes: [n], operations: operations, seed: UInt64(n))
            let b = try runWorkload(GrowingFrom(floor, filled), sizes: [n], operations: operations, seed: UInt64(n))
            filled = n
            oursResults += a
            floorResults += b
            paired.append(try PairedWrites.run(ours: ours, floor: floor, items: n, operations: min(operations, 500), location: "disk"))
            progress("  paired writes at \(n): add \(paired.last!.ours_add.median_us) µs vs \(paired.last!.floor_add.median_us) µs")
            memory.append(try MemoryProbe.spawn(keychain: keychain, deviceKey: deviceKey, items: n, lookups: lookups))
            progress("  memory at \(n) items: peak \(memory.last!.peak_rss_kib) KiB")
            if let hook = options.values["hook"] {
                // The end-to-end (CLI) measurements of our keychain run here, on this same
                // file at this size, so the keychain is filled only once.
                try runHook(hook, [String(n), keychain, deviceKey])
            }
        }
        // Evidence for the lookup-plan fix, on copies of the largest keychain.
        let whatif = try WhatIf.run(keychain: keychain, deviceKey: deviceKey, items: filled,
                                    operations: min(operations, 300), directory: directory)
        let whatifWrites = try WhatIf.writes(keychain: keychain, deviceKey: deviceKey, items: filled,
                                             operations: min(operations, 300), directory: directory)
        // The same writes where fsync is free (tmpfs): CPU and SQLite work alone.
        if FileManager.default.fileExists(atPath: "/dev/shm") {
            paired.append(try PairedWrites.fresh(in: "/dev/shm/keychain-bench-\(getpid())", items: 1000,
                                                 operations: min(operations, 500), location: "tmpfs"))
            progress("  paired writes on tmpfs: add \(paired.last!.ours_add.median_us) µs vs \(paired.last!.floor_add.median_us) µs")
        }
        try emit(CoreResult(ours: oursResults, floor: floorResults, memory: memory, whatif: whatif, whatif_writes: whatifWrites, paired: paired,
                            sqlite_version: sqliteVersion()))
    case "lock":
        let directory = try options.string("dir")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try emit(LockBench.run(directory: directory, items: try options.int("items", 1000),
                               reads: try options.int("reads", 4000), repetitions: try options.int("reps", 10)))
    case "keys":
        let directory = try options.string("dir")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try emit(KeyBench.run(directory: directory, operations: try options.int("ops", 2000), rounds: try options.int("rounds", 10)))
    case "scale":
        let directory = try options.string("dir")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try emit(ScaleBench.run(directory: directory, items: try options.int("items", 1000),
                                seconds: Double(try options.int("seconds", 3)), repetitions: try options.int("reps", 5)))
    case "scale-child":
        try emit(ScaleBench.child(keychain: try options.string("keychain"), deviceKey: try options.string("device-key"),
                                  items: try options.int("items"), writePercent: try options.int("write-percent"),
                                  startAt: Double(try options.string("start-at")) ?? 0,
                                  seconds: Double(try options.string("seconds")) ?? 1, tag: try options.string("tag")))
    case "lookup-bound":
        let directory = try options.string("dir")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try emit(LookupBound.run(directory: directory, items: try options.int("items", 1000),
                                 operations: try options.int("ops", 2000), rounds: try options.int("rounds", 5)))
    case "write-bound":
        let directory = try options.string("dir")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try emit(WriteBound.run(directory: directory, items: try options.int("items", 1000), operations: try options.int("ops", 2000),
                                pauseMicroseconds: try options.int("pause-us", 0)))
    case "result-cast":
        let directory = try options.string("dir")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try emit(ResultCast.run(directory: directory, sizes: try options.ints("sizes", "24,1024,4096"),
                                operations: try options.int("ops", 2000), rounds: try options.int("rounds", 5)))
    case "keys-profile":
        let directory = try options.string("dir")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try KeyCreateProfile.run(directory: directory, what: try options.string("what"), count: try options.int("count", 200))
    case "update-child":
        // U SecItemUpdate calls, each giving a random filler item a new secret: what
        // instructions.sh counts per update.
        let system = try SecItemSystem(path: try options.string("keychain"), deviceKeyPath: try options.string("device-key"))
        try runCalls(.update, on: system, items: try options.int("items"), count: try options.int("updates"), seed: 11)
    case "fill":
        try childSystem(options).fill(from: try options.int("from", 0), to: try options.int("items"))
    case "footprint-child":
        // Made for footprint.sh, which runs it under valgrind's lackey.
        guard let kind = CallKind(rawValue: try options.string("op")) else {
            throw BenchFailure("--op wants add, update or lookup")
        }
        try Footprint.child(system: childSystem(options), kind: kind, items: try options.int("items"),
                            calls: try options.int("calls", 30))
    case "memory-child":
        try emit(MemoryProbe.child(keychain: try options.string("keychain"), deviceKey: try options.string("device-key"),
                                   items: try options.int("items"), lookups: try options.int("lookups")))
    default:
        throw BenchFailure(usage)
    }
}

/// The one store `fill` and `footprint-child` work on, named by `--system`: ours (the default), at
/// `--keychain` with the device key at `--device-key`, or the floor's, at `--keychain`.
func childSystem(_ options: Options) throws -> any KeyValueSystem {
    let path = try options.string("keychain")
    switch try options.string("system", "ours") {
    case "ours": return try SecItemSystem(path: path, deviceKeyPath: try options.string("device-key"))
    case "floor": return try SQLiteFloorSystem(path: path)
    default: throw BenchFailure("--system wants ours or floor")
    }
}

/// Runs `command` (a shell command line) with `arguments` appended; its output goes to ours.
func runHook(_ command: String, _ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command + " \"$@\"", "hook"] + arguments
    process.standardOutput = FileHandle.standardError
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw BenchFailure("hook exited \(process.terminationStatus)") }
}

/// Resumes a system's fill from where an earlier size left it.
final class GrowingFrom: KeyValueSystem {
    let base: any KeyValueSystem
    let start: Int
    init(_ base: any KeyValueSystem, _ start: Int) { self.base = base; self.start = start }
    var name: String { base.name }
    func fill(from: Int, to: Int) throws { try base.fill(from: max(from, start), to: to) }
    func add(account: String, secret: [UInt8]) throws { try base.add(account: account, secret: secret) }
    func lookup(account: String) throws { try base.lookup(account: account) }
    func update(account: String, secret: [UInt8]) throws { try base.update(account: account, secret: secret) }
    func delete(account: String) throws { try base.delete(account: account) }
    var bytesOnDisk: Int { base.bytesOnDisk }
    var databasePath: String { base.databasePath }
}

do {
    try main()
} catch {
    progress("keychain-bench: \(error)")
    exit(1)
}
