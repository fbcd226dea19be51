import Foundation
import Testing
import KeychainServices
import KeychainStore
import KeychainTestSupport
@testable import KeychainKit

@Suite("Add if absent")
struct AddTests {
    @Test("add stores a string under a free key; a second add throws duplicateItem and keeps the first value")
    func stringAddIsRefusedTheSecondTime() throws {
        try withTestKeychain { _ in
            let keychain = Keychain(service: "svc")
            try keychain.add("first", key: "token")
            #expect(try keychain.get("token") == "first")
            let error = #expect(throws: KeychainError.duplicateItem) { try keychain.add("second", key: "token") }
            #expect(error?.operation == .add)
            #expect(try keychain.get("token") == "first")
        }
    }

    @Test("The Data overload adds raw bytes once")
    func dataAdd() throws {
        try withTestKeychain { _ in
            let keychain = Keychain(service: "svc")
            let bytes = Data([0, 255, 7])
            try keychain.add(bytes, key: "blob")
            #expect(throws: KeychainError.duplicateItem) { try keychain.add(Data([1]), key: "blob") }
            #expect(try keychain.getData("blob") == bytes)
        }
    }

    @Test("The Codable overload encodes as set does and adds once")
    func codableAdd() throws {
        try withTestKeychain { _ in
            let keychain = Keychain(service: "svc")
            let account = Account(userId: "tkgling", password: "s3cret", membership: true)
            try keychain.add(account, key: "account")
            let other = Account(userId: "other", password: "x", membership: false)
            #expect(throws: KeychainError.duplicateItem) { try keychain.add(other, key: "account") }
            #expect(try keychain.get("account", as: Account.self) == account)
        }
    }

    @Test("A value stored by set counts as present; after remove, add succeeds again")
    func addAfterSetAndRemove() throws {
        try withTestKeychain { _ in
            let keychain = Keychain(service: "svc")
            try keychain.set("by set", key: "k")
            #expect(throws: KeychainError.duplicateItem) { try keychain.add("by add", key: "k") }
            try keychain.remove("k")
            try keychain.add("by add", key: "k")
            #expect(try keychain.get("k") == "by add")
        }
    }

    @Test("Keys are per service: the same key in another service is free")
    func keysArePerService() throws {
        try withTestKeychain { _ in
            try Keychain(service: "one").add("1", key: "k")
            try Keychain(service: "two").add("2", key: "k")
            #expect(try Keychain(service: "one").get("k") == "1")
            #expect(try Keychain(service: "two").get("k") == "2")
        }
    }

    @Test("add is one SecItemAdd: no read before it and no update after a duplicate")
    func addIsOneCall() throws {
        try withTestKeychain { _ in
            let recorder = SecItemRecorder()
            let keychain = Keychain(service: "svc").recording(recorder)
            try keychain.add("v", key: "k")
            #expect(throws: KeychainError.duplicateItem) { try keychain.add("w", key: "k") }
            #expect(recorder.recorded.map(\.function) == ["add", "add"])
        }
    }

    @Test("With synchronizable(.any) a synchronized copy counts as present")
    func anySeesSynchronizedCopy() throws {
        try withTestKeychain { _ in
            try Keychain(service: "svc").synchronizable(true).set("synced", key: "k")
            let any = Keychain(service: "svc").synchronizable(.any)
            #expect(throws: KeychainError.duplicateItem) { try any.add("local", key: "k") }
            try any.add("local", key: "free")
            #expect(try Keychain(service: "svc").get("free") == "local")
        }
    }

    @Test("Two threads racing to add the same key: exactly one wins, and the stored value is the winner's",
          arguments: 0..<3)
    func twoThreadRace(_ round: Int) throws {
        let test = try TestKeychain()
        let keychain = Keychain(service: "race")
        let keys = (0..<15).map { "token-\(round)-\($0)" }
        let outcomes = Locked<[String: [String]]>([:])
        let start = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        for contender in ["A", "B"] {
            done.enter()
            Thread.detachNewThread {
                defer { done.leave() }
                start.wait()
                test.run {
                    for key in keys {
                        do {
                            try keychain.add("value from \(contender)", key: key)
                            outcomes.withLock { $0[key, default: []].append(contender) }
                        } catch KeychainError.duplicateItem {
                            // The other thread got there first.
                        } catch {
                            outcomes.withLock { $0[key, default: []].append("error: \(error)") }
                        }
                    }
                }
            }
        }
        start.signal()
        start.signal()
        done.wait()
        let winners = outcomes.withLock { $0 }
        try test.run {
            for key in keys {
                let winner = try #require(winners[key]?.only, "\(key): \(winners[key] ?? [])")
                #expect(try keychain.get(key) == "value from \(winner)")
            }
        }
    }

    @Test("Concurrent async adds of one key: exactly one task wins")
    func asyncRace() async throws {
        try await withTestKeychain { (_: TestKeychain) async throws in
            let keychain = Keychain(service: "race")
            let results = await withTaskGroup(of: Bool.self) { group in
                for contender in 0..<8 {
                    group.addTask {
                        do {
                            try await keychain.add("value \(contender)", key: "token")
                            return true
                        } catch {
                            return false
                        }
                    }
                }
                return await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(results.filter { $0 }.count == 1)
            let stored = try await keychain.get("token")
            #expect(stored?.hasPrefix("value ") == true)
        }
    }
}

private extension Array {
    /// The one element of a one-element array, else nil.
    var only: Element? { count == 1 ? first : nil }
}
