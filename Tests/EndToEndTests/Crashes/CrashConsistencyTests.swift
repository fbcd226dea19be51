import Foundation
import KeychainTestSupport
import KeychainStore
import Testing

/// Durability: a write commits durably before the call returns, so a crash never loses a call that
/// returned success and never leaves half an update. A writer process (`keychain-test-worker
/// crash-workload`) adds, updates, deletes and changes the password in a loop and is killed with
/// SIGKILL at random points, over and over; after each kill the keychain is reopened and checked
/// against every call the writer had acknowledged.
@Suite("Crash consistency: SIGKILL at random points loses nothing and half-applies nothing", .serialized)
struct CrashConsistencyTests {
    static let kills = 220
    static let seed = UInt64(ProcessInfo.processInfo.environment["SWIFT_KEYCHAIN_CRASH_SEED"] ?? "") ?? 0xC0FFEE_D00D

    /// What the parent knows: each account's version from acknowledged calls, and the password.
    struct Model {
        var versions: [String: String] = [:]
        var current = "password-A"
        var other = "password-B"
    }

    /// One call the worker announced.
    struct Call {
        let index: Int
        let kind: String
        let arguments: [String]
    }

    /// The worker's announcements: calls acknowledged (in order), the call under way when it
    /// died (if any), and any call that failed.
    static func parse(_ lines: [String]) -> (acknowledged: [Call], pending: Call?, failures: [String]) {
        var acknowledged: [Call] = []
        var pending: Call?
        var failures: [String] = []
        for line in lines {
            let parts = line.split(separator: " ").map(String.init)
            switch parts.first {
            case "begin" where parts.count >= 3:
                pending = Call(index: Int(parts[1]) ?? -1, kind: parts[2], arguments: Array(parts.dropFirst(3)))
            case "ack" where parts.count == 2:
                if let call = pending, call.index == Int(parts[1]) { acknowledged.append(call) }
                pending = nil
            case "fail": failures.append(line)
            default: break
            }
        }
        return (acknowledged, pending, failures)
    }

    static func apply(_ call: Call, to model: inout Model) {
        switch call.kind {
        case "add", "update": model.versions[call.arguments[0]] = call.arguments[1]
        case "delete": model.versions[call.arguments[0]] = nil
        case "password": (model.current, model.other) = (model.other, model.current)
        default: break
        }
    }

    static func findAll(_ file: KeychainFile) throws(KeychainStoreError) -> [StoredItem] {
        do {
            return try file.find(ItemQuery(itemClass: .genericPassword, filters: ["svce": .string("crash.example")]),
                                 identity: .unconfigured, limit: nil, includeSecrets: true)
        } catch {
            if error.status == SecStatus.itemNotFound { return [] }
            throw error
        }
    }

    /// Each item's version as its secret, label and generic attribute carry it; a disagreement
    /// among them is an update half-applied.
    static func observe(_ file: KeychainFile) throws -> [String: String] {
        let found = try findAll(file)
        var versions: [String: String] = [:]
        for item in found {
            let account = try #require(item.attributes["acct"]?.stringValue)
            func version(_ text: String?, _ prefix: String) -> String? {
                guard let text, text.hasPrefix("\(prefix):\(account):") else { return nil }
                return String(text.dropFirst(prefix.count + account.count + 2))
            }
            let fromSecret = version(item.secret.map { String(decoding: $0, as: UTF8.self) }, "secret")
            let fromLabel = version(item.attributes["labl"]?.stringValue, "label")
            var generic: String?
            if case .data(let data)? = item.attributes["gena"] { generic = String(decoding: data, as: UTF8.self) }
            let fromGeneric = version(generic, "generic")
            try #require(fromSecret != nil && fromSecret == fromLabel && fromLabel == fromGeneric,
                         "\(account) is half-applied: secret \(fromSecret ?? "?"), label \(fromLabel ?? "?"), generic \(fromGeneric ?? "?")")
            try #require(versions[account] == nil, "\(account) is stored twice")
            versions[account] = fromSecret
        }
        return versions
    }

    @Test("After each of 220 SIGKILLs the keychain opens, passes its integrity check, holds every acknowledged call and no half-applied one")
    func killedWriter() throws {
        let worker = try CrashWorker(prefix: "crash")
        defer { worker.remove() }
        // How long one key derivation takes here: a password change makes two, and kills must
        // be spread over all of it, not only its start (used to place kills, never asserted on).
        let derivation: TimeInterval
        do {
            let file = try worker.open(create: true)
            let start = Date()
            try file.setPassword("password-A", currentPassword: nil)
            derivation = Date().timeIntervalSince(start)
            file.forgetSharedUnlockState()
        }
        var model = Model()
        var random = SeededRandom(seed: Self.seed)
        var stats = (acknowledged: 0, midCall: 0, beforeReady: 0, passwordChanges: 0, passwordKills: 0, passwordMidCall: 0)
        let output = worker.directory.appendingPathComponent("worker.out")
        for round in 0..<Self.kills {
            let process = try worker.start("crash-workload", [String(round), String(random.next()), model.current, model.other],
                                           output: output)
            if random.next() % 10 == 0 {
                // Some kills land while the worker opens the keychain (and recovers its WAL).
                usleep(useconds_t(random.next() % 60_000))
                stats.beforeReady += 1
            } else {
                try #require(CrashWorker.wait(for: "ready", in: output, process: process),
                             "round \(round): the worker did not start: \(CrashWorker.lines(output).suffix(3))")
                usleep(useconds_t(random.next() % 25_000))
                if CrashWorker.lines(output).last?.contains(" password ") == true {
                    // A password change is under way: strike anywhere in it, or just after it.
                    let span = UInt64(max(derivation * 3, 0.05) * 1_000_000)
                    usleep(useconds_t(random.next() % span))
                }
            }
            kill(process.processIdentifier, SIGKILL)
            let exit = process.waitForExit()
            let (acknowledged, pending, failures) = Self.parse(CrashWorker.lines(output))
            try #require(failures.isEmpty, "round \(round) (seed \(Self.seed)): a call failed: \(failures)")
            try #require(exit.terminationReason == .uncaughtSignal, "round \(round): the worker exited by itself")
            for call in acknowledged { Self.apply(call, to: &model) }
            stats.acknowledged += acknowledged.count
            stats.passwordChanges += acknowledged.filter { $0.kind == "password" }.count
            if pending != nil { stats.midCall += 1 }
            if pending?.kind == "password" { stats.passwordKills += 1 }

            let file = try worker.open()
            try #require(try file.integrityCheck(), "round \(round): integrity check failed")
            let observed = try Self.observe(file)
            var expected = model.versions
            if let pending, pending.kind != "password" {
                // The call under way may or may not have committed; either whole state is fine.
                var after = model
                Self.apply(pending, to: &after)
                let account = pending.arguments[0]
                try #require(observed[account] == model.versions[account] || observed[account] == after.versions[account],
                             "round \(round): \(account) is neither before nor after the interrupted \(pending.kind)")
                expected[account] = observed[account]
            }
            try #require(observed == expected, "round \(round) (seed \(Self.seed)): the keychain lost or invented an acknowledged call")
            model.versions = observed

            if pending?.kind == "password" || acknowledged.contains(where: { $0.kind == "password" }) {
                if (try? file.unlock(password: model.current)) == nil {
                    try #require(pending?.kind == "password", "round \(round): the acknowledged password does not unlock")
                    try file.unlock(password: model.other)
                    (model.current, model.other) = (model.other, model.current)
                    stats.passwordMidCall += 1
                }
                #expect((try? file.unlock(password: model.other)) == nil, "round \(round): the old password still unlocks")
                file.forgetSharedUnlockState()
            }
        }
        print("crash consistency: \(Self.kills) kills (seed \(Self.seed)), \(stats.acknowledged) acknowledged calls, "
              + "\(stats.midCall) kills during a call, \(stats.beforeReady) during open, "
              + "\(stats.passwordChanges) password changes, \(stats.passwordKills) kills during one, "
              + "\(stats.passwordMidCall) of them after its commit")
        // The proof only means something if kills struck inside calls, not just between them.
        #expect(stats.midCall > Self.kills / 2)
        #expect(stats.acknowledged > Self.kills)
        #expect(stats.passwordChanges > 0)
    }
}
