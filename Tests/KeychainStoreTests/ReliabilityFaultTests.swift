#if DEBUG
import Foundation
@testable import KeychainStore
import KeychainTestSupport
import Testing

/// Faults forced at the SQLite boundary through the fault seam, compiled into debug builds only:
/// each one surfaces as the status Apple gives that SQLite error, the transaction rolls
/// back, and the keychain stays readable with nothing changed.
@Suite("Reliability: SQLite faults roll back and leave the keychain readable")
struct ReliabilityFaultTests {
    /// A fault, where it strikes, and the status it must surface as.
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let rule: FaultPlan.Rule
        let status: Int32
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        // BEGIN IMMEDIATE is where a writer waits for another; past the timeout it is BUSY.
        Case(name: "busy past the timeout at BEGIN", rule: .init(.sqliteBegin, result: SQLiteCode.busy), status: SecStatus.notAvailable),
        Case(name: "I/O error writing a row", rule: .init(.sqliteStep, result: SQLiteCode.ioerrWrite, statements: .writes), status: SecStatus.io),
        Case(name: "full disk writing a row", rule: .init(.sqliteStep, result: SQLiteCode.full, statements: .writes), status: SecStatus.notAvailable),
        Case(name: "I/O error reading a row", rule: .init(.sqliteStep, result: SQLiteCode.ioerr, statements: .reads), status: SecStatus.io),
        Case(name: "busy on a statement", rule: .init(.sqliteStep, result: SQLiteCode.busy, statements: .writes), status: SecStatus.notAvailable),
        Case(name: "failed fsync at COMMIT", rule: .init(.sqliteCommit, result: SQLiteCode.ioerrFsync), status: SecStatus.io),
        Case(name: "full disk at COMMIT", rule: .init(.sqliteCommit, result: SQLiteCode.full), status: SecStatus.notAvailable),
        Case(name: "busy at COMMIT", rule: .init(.sqliteCommit, result: SQLiteCode.busy), status: SecStatus.notAvailable),
    ]

    /// Every fault with every call it can strike: read faults only with calls that read rows
    /// (setting a password or a timeout on a keychain without one only writes, and so does adding
    /// a new item: the UNIQUE primary-key index, not a read, finds a clash).
    static var pairs: [(Case, Mutation)] {
        cases.flatMap { fault in
            Mutation.allCases.compactMap { mutation in
                let readsRows = ![.setPassword, .setLockTimeout, .add].contains(mutation)
                return fault.rule.statements == .reads && !readsRows ? nil : (fault, mutation)
            }
        }
    }

    @Test("A fault in a state-changing call is its errSec status, and the keychain is left exactly as it was",
          arguments: pairs)
    func faultRollsBack(fault: Case, mutation: Mutation) throws {
        let fixture = try ReliabilityFixture()
        defer { fixture.remove() }
        let file = try fixture.open()
        defer { file.forgetSharedUnlockState() }
        let before = try KeychainSnapshot(file)
        let plan = FaultPlan(fault.rule)
        let outcome = FaultInjection.$plan.withValue(plan) { engineError { () throws(KeychainStoreError) in try mutation.run(file) } }
        try #require(plan.anyFired, "the fault never struck: the call did not reach that boundary")
        let error = try #require(outcome, "the call succeeded although the fault struck")
        #expect(error.status == fault.status, "\(error)")
        #expect(try KeychainSnapshot(file) == before, "the same connection sees a change")
        #expect(try file.integrityCheck())
        // A new process (a fresh open) sees the same keychain, and the call then succeeds.
        let reopened = try fixture.open()
        #expect(try KeychainSnapshot(reopened) == before, "a fresh open sees a change")
        #expect(throws: Never.self) { try mutation.run(file) }
    }

    @Test("A fault at every step of a call, one at a time, never leaves part of it applied",
          arguments: Mutation.allCases)
    func faultAtEveryStep(mutation: Mutation) throws {
        let fixture = try ReliabilityFixture()
        defer { fixture.remove() }
        let file = try fixture.open()
        defer { file.forgetSharedUnlockState() }
        let before = try KeychainSnapshot(file)
        var step = 0
        while true {
            let plan = FaultPlan(.init(.sqliteStep, result: SQLiteCode.ioerr, skip: step))
            let failure = FaultInjection.$plan.withValue(plan) {
                engineError { () throws(KeychainStoreError) in try mutation.run(file) }
            }
            guard plan.anyFired else {
                // Every step has been failed once; this run had no fault and must have succeeded.
                #expect(failure == nil, "\(failure.map(String.init(describing:)) ?? "")")
                break
            }
            #expect(failure?.status == SecStatus.io, "step \(step): \(failure.map(String.init(describing:)) ?? "succeeded")")
            #expect(try KeychainSnapshot(file) == before, "step \(step) left part of the call applied")
            step += 1
            try #require(step < 200, "the call never stopped reaching new steps")
        }
        #expect(step > 0)
        #expect(try KeychainSnapshot(file) != before, "the call that finally ran changed nothing")
        #expect(try file.integrityCheck())
    }

    @Test("A random-generator failure at any draw of a call is errSecAllocate (-108), and nothing of the call is applied",
          arguments: [Mutation.add, .update, .updateKey])
    func randomFailureRollsBack(mutation: Mutation) throws {
        let fixture = try ReliabilityFixture()
        defer { fixture.remove() }
        let file = try fixture.open()
        defer { file.forgetSharedUnlockState() }
        let before = try KeychainSnapshot(file)
        var draw = 0
        while true {
            // EIO (5): what getrandom(2) would report if the generator itself failed.
            let plan = FaultPlan(.init(.random, result: 5, skip: draw))
            let failure = FaultInjection.$plan.withValue(plan) {
                engineError { () throws(KeychainStoreError) in try mutation.run(file) }
            }
            guard plan.anyFired else {
                #expect(failure == nil, "\(failure.map(String.init(describing:)) ?? "")")
                break
            }
            #expect(failure?.status == SecStatus.allocate, "draw \(draw): \(failure.map(String.init(describing:)) ?? "succeeded")")
            #expect(try KeychainSnapshot(file) == before, "draw \(draw) left part of the call applied")
            #expect(try KeychainSnapshot(fixture.open()) == before, "draw \(draw): a fresh open sees a change")
            draw += 1
            try #require(draw < 50, "the call never stopped drawing random bytes")
        }
        #expect(draw > 0, "the call drew no random bytes through the seam")
        #expect(try KeychainSnapshot(file) != before, "the call that finally ran changed nothing")
        #expect(try file.integrityCheck())
    }

    @Test("A failed password change keeps the old password and the in-memory keys")
    func failedPasswordChange() throws {
        let fixture = try ReliabilityFixture(password: "old password")
        defer { fixture.remove() }
        let file = try fixture.open()
        defer { file.forgetSharedUnlockState() }
        try file.unlock(password: "old password")
        let plan = FaultPlan(.init(.sqliteCommit, result: SQLiteCode.ioerrFsync))
        let failure = FaultInjection.$plan.withValue(plan) {
            engineError { () throws(KeychainStoreError) in try file.setPassword("new password", currentPassword: "old password") }
        }
        #expect(failure?.status == SecStatus.io)
        #expect(plan.fired(.sqliteCommit) == 1)
        let reopened = try fixture.open()
        defer { reopened.forgetSharedUnlockState() }
        #expect(throws: Never.self) { try reopened.unlock(password: "old password") }
        #expect((try? reopened.unlock(password: "new password")) == nil)
        // The open connection still holds the old keys and reads class A items.
        #expect(throws: Never.self) { try file.setPassword("third", currentPassword: "old password") }
    }

    @Test("A read that fails with an I/O error is errSecIO, and the next read succeeds")
    func readFault() throws {
        let fixture = try ReliabilityFixture()
        defer { fixture.remove() }
        let file = try fixture.open()
        let plan = FaultPlan(.init(.sqliteStep, result: SQLiteCode.ioerr, statements: .reads))
        let query = ItemQuery(itemClass: .genericPassword, filters: ["acct": .string("account-0")])
        let failed = FaultInjection.$plan.withValue(plan) {
            engineError { () throws(KeychainStoreError) in _ = try file.find(query, identity: .unconfigured, limit: 1, includeSecrets: true) }
        }
        #expect(failed?.status == SecStatus.io)
        let found = try file.find(query, identity: .unconfigured, limit: 1, includeSecrets: true)
        #expect(found.first?.secret == Data("secret-0-Kq7".utf8))
    }

    @Test("A fault injected in one task does not reach a call made outside it")
    func faultsAreScopedToTheirTask() throws {
        let fixture = try ReliabilityFixture()
        defer { fixture.remove() }
        let file = try fixture.open()
        let plan = FaultPlan(.init(.sqliteBegin, result: SQLiteCode.busy, times: 1000))
        FaultInjection.$plan.withValue(plan) {
            let thread = Thread { _ = try? Mutation.add.run(file) }
            thread.start()
            while !thread.isFinished { usleep(1000) }
            #expect(plan.fired(.sqliteBegin) == 0)
            _ = try? Mutation.update.run(file)
            #expect(plan.fired(.sqliteBegin) == 1)
        }
        #expect(try file.find(ItemQuery(itemClass: .genericPassword, filters: ["acct": .string("new")]), identity: .unconfigured,
                              limit: 1, includeSecrets: false).count == 1)
    }
}
#endif
