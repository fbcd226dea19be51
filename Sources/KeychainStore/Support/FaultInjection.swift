#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CKeychainSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Random bytes from the operating system, or `errSecAllocate` when a fault is injected (Apple maps
/// a random-generator failure to -108). The bytes come from getrandom(2), which never fails once
/// the kernel's pool is seeded (`SystemRandomNumberGenerator`, which stops the process if it ever
/// did, finishes what it could not); the throwing signature lets callers treat the failure as one
/// they roll back from.
func secureRandomBytes(_ count: Int) throws(KeychainStoreError) -> Data {
    try injectedRandomFailure()
    var bytes = Data(count: count)
    bytes.withUnsafeMutableBytes { buffer in
        // One getrandom(2) call for the whole buffer (the generator below makes one per byte);
        // the generator only finishes what the kernel call could not.
        var filled = buffer.isEmpty ? 0 : Int(cks_random_bytes(buffer.baseAddress!, buffer.count))
        var generator = SystemRandomNumberGenerator()
        while filled < buffer.count {
            buffer[filled] = generator.next()
            filled += 1
        }
    }
    return bytes
}

/// Throws `errSecAllocate` when a test injected a random-generator fault here; does nothing
/// otherwise, and nothing at all in release builds. Every draw of fresh bytes calls it (through
/// `secureRandomBytes`), so a test can fail any draw of a call — an item key, a nonce, a
/// persistent reference — and prove the call rolls back.
@inline(__always)
func injectedRandomFailure() throws(KeychainStoreError) {
    #if DEBUG
    if let failure = FaultInjection.fault(.random) {
        throw .allocate("the system random generator failed (\(String(cString: strerror(failure))))")
    }
    #endif
}

#if DEBUG
/// Faults a test can force at the engine's C boundaries — SQLite, the creation of private files,
/// the random generator — so that each failure a real machine can produce is proved to surface
/// as a status, roll back, and leave the keychain readable. Compiled only into debug builds.
///
/// A plan is task-local: only engine calls made inside `FaultInjection.$plan.withValue(plan) { … }`
/// see it, so tests running in parallel in one process never trip over each other's faults.
///
/// ```swift
/// let plan = FaultPlan(.init(.sqliteCommit, result: SQLITE_IOERR))
/// let status = FaultInjection.$plan.withValue(plan) { (try? file.add(…)) == nil }
/// #expect(plan.fired(.sqliteCommit) == 1)
/// ```
enum FaultInjection {
    /// The faults in force for the current task, if any.
    @TaskLocal static var plan: FaultPlan?

    /// The fault to inject at this call of `point`, or nil to do the real thing.
    static func fault(_ point: FaultPlan.Point, writes: Bool = true) -> Int32? {
        plan?.take(point, writes: writes)
    }
}

/// A list of faults to inject, each at chosen calls of one boundary, and a record of what fired.
final class FaultPlan: Sendable {
    /// The boundaries where a fault can be injected.
    enum Point: Hashable, Sendable {
        /// `sqlite3_step`; the result is an SQLite result code.
        case sqliteStep
        /// `BEGIN` of a transaction (where SQLITE_BUSY surfaces once the busy timeout has run out).
        case sqliteBegin
        /// `COMMIT`; the transaction is then rolled back, as SQLite does after a failed commit.
        case sqliteCommit
        /// `sqlite3_open_v2`.
        case sqliteOpen
        /// `write(2)` while creating a private file: a result ≥ 0 writes only that many bytes
        /// (a short write); a negative result fails with that errno (e.g. `-ENOSPC`).
        case fileWrite
        /// `fsync(2)` while creating a private file; the result is the errno it fails with.
        case fileSync
        /// The system random generator (every `secureRandomBytes` draw: item keys, nonces,
        /// persistent references, keychain ids); the result is the errno it fails with.
        case random
        /// Adding a key to the kernel keyring (`add_key(2)`); the result is the errno it fails
        /// with (e.g. `EDQUOT` for a full quota).
        case keyringAdd
    }

    /// Which statements a step fault applies to.
    enum Statements: Sendable { case all, writes, reads }

    /// One fault: let `skip` matching calls through, then fail the next `times` with `result`.
    /// Or, made with ``interleaving(_:at:skip:)``, no fault but something else happening at that
    /// moment: `action` runs, then the call goes on as usual.
    struct Rule: Sendable {
        var point: Point
        var result: Int32
        var skip: Int
        var times: Int
        var statements: Statements
        var action: (@Sendable () -> Void)?

        init(_ point: Point, result: Int32, skip: Int = 0, times: Int = 1, statements: Statements = .all) {
            self.point = point
            self.result = result
            self.skip = skip
            self.times = times
            self.statements = statements
        }

        /// Runs `action` once, at the call of `point` after `skip` others, before that call
        /// does its work: another process's write landing just then, for instance. Calls the
        /// action makes itself pass this rule by. The action must use another `KeychainFile`
        /// than the interrupted call: that one holds its state's lock, and would wait on itself.
        static func interleaving(_ action: @escaping @Sendable () -> Void, at point: Point, skip: Int = 0) -> Rule {
            var rule = Rule(point, result: 0, skip: skip)
            rule.action = action
            return rule
        }
    }

    private struct State {
        var rules: [Rule]
        var fired: [Point: Int] = [:]
        var calls: [Point: Int] = [:]
    }

    private let state: Locked<State>

    init(_ rules: Rule...) {
        state = Locked(State(rules: rules))
    }

    init(rules: [Rule]) {
        state = Locked(State(rules: rules))
    }

    /// How many faults fired at `point`.
    func fired(_ point: Point) -> Int { state.withLock { $0.fired[point] ?? 0 } }

    /// How many calls reached `point` while the plan was in force (faulted or not).
    func calls(_ point: Point) -> Int { state.withLock { $0.calls[point] ?? 0 } }

    /// Whether any rule fired.
    var anyFired: Bool { state.withLock { !$0.fired.isEmpty } }

    fileprivate func take(_ point: Point, writes: Bool) -> Int32? {
        let chosen: Rule? = state.withLock { state in
            state.calls[point, default: 0] += 1
            for index in state.rules.indices where state.rules[index].point == point && state.rules[index].times > 0 {
                switch state.rules[index].statements {
                case .writes where !writes, .reads where writes: continue
                default: break
                }
                if state.rules[index].skip > 0 {
                    state.rules[index].skip -= 1
                    continue
                }
                state.rules[index].times -= 1
                state.fired[point, default: 0] += 1
                return state.rules[index]
            }
            return nil
        }
        guard let chosen else { return nil }
        // Outside the lock: the action's own engine calls come back through here.
        if let action = chosen.action {
            action()
            return nil
        }
        return chosen.result
    }
}
#endif
