import Foundation
import Testing
import KeychainServices
import KeychainStore
import KeychainTestSupport
@testable import KeychainKit

@Suite("Concurrency")
struct ConcurrencyTests {
    @Test("Every public type is Sendable")
    func publicTypesAreSendable() {
        func requireSendable<T: Sendable>(_: T.Type) {}
        requireSendable(Keychain.self)
        requireSendable(Keychain.ItemClass.self)
        requireSendable(KeychainError.self)
        requireSendable(KeychainError.Operation.self)
        requireSendable(KeychainKitError.self)
        requireSendable(KeychainItem.self)
        requireSendable(Credentials.self)
        requireSendable(Accessibility.self)
        requireSendable(Synchronizable.self)
        requireSendable(ProtocolType.self)
        requireSendable(AuthenticationType.self)
        requireSendable((any KeychainValueEncoder).self)
        requireSendable((any KeychainValueDecoder).self)
    }

    @Test("Async operations run their SecItem calls on the keychain executor, off the caller's actor")
    @MainActor
    func asyncRunsOffTheCaller() async throws {
        try await withTestKeychain { @MainActor (_: TestKeychain) async throws in
            MainActor.assertIsolated()
            let recorder = SecItemRecorder()
            let keychain = Keychain(service: "svc").recording(recorder)
            try await keychain.set("v", key: "k")
            _ = try await keychain.get("k")
            _ = try await keychain.allKeys()
            try await keychain.remove("k")
            #expect(recorder.recorded.count >= 4)
            #expect(recorder.recorded.allSatisfy { $0.onKeychainExecutor })
        }
    }

    @Test("Synchronous operations run on the caller's thread")
    func syncRunsInline() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            let recorder = SecItemRecorder()
            try Keychain(service: "svc").recording(recorder).set("v", key: "k")
            #expect(recorder.recorded.allSatisfy { !$0.onKeychainExecutor })
        }
    }

    @Test("Async operations use the calling task's keychain, not the process default")
    func asyncKeepsTaskContext() async throws {
        try await withTestKeychain { (test: TestKeychain) async throws in
            let keychain = Keychain(service: "svc")
            try await keychain.set("from async", key: "k")
            // Read synchronously in the same test keychain: the async write went there.
            #expect(try test.run { try keychain.get("k") } == "from async")
            #expect(try await keychain.get("k") == "from async")
        }
    }

    @Test("Every async operation works")
    func asyncOperations() async throws {
        try await withTestKeychain { (_: TestKeychain) async throws in
            let keychain = Keychain(service: "svc")
            try await keychain.set("s", key: "string")
            try await keychain.set(Data([1]), key: "data")
            try await keychain.set(Account(userId: "u", password: "p", membership: true), key: "account")
            #expect(try await keychain.get("string") == "s")
            #expect(try await keychain.getString("string") == "s")
            #expect(try await keychain.getData("data") == Data([1]))
            #expect(try await keychain.get("account", as: Account.self)?.userId == "u")
            #expect(try await keychain.contains("data"))
            #expect(try await keychain.allKeys() == ["string", "data", "account"])
            #expect(try await keychain.allItems().count == 3)
            #expect(try await keychain.attributes("string")?.key == "string")
            try await keychain.remove("string")
            #expect(try await keychain.contains("string") == false)
            try await keychain.removeAll()
            #expect(try await keychain.allKeys() == [])

            let site = try Keychain(server: "https://www.example.com", protocolType: .https)
            try await site.saveCredentials(Credentials(account: "alice", password: "old"))
            try await site.updateCredentials(Credentials(account: "alice", password: "new"))
            #expect(try await site.credentials()?.password == "new")
            try await site.deleteCredentials()
            #expect(try await site.credentials() == nil)
        }
    }

    @Test("120 concurrent tasks mixing reads, writes and removes leave exactly the expected items")
    func manyConcurrentTasks() async throws {
        try await withTestKeychain { (_: TestKeychain) async throws in
            let keychain = Keychain(service: "svc")
            try await withThrowingTaskGroup(of: Void.self) { group in
                for task in 0..<120 {
                    group.addTask {
                        switch task % 4 {
                        case 0:
                            // Own key, written twice: the second value wins.
                            try await keychain.set("first-\(task)", key: "own-\(task)")
                            try await keychain.set("final-\(task)", key: "own-\(task)")
                        case 1:
                            // Everyone upserts one shared key.
                            try await keychain.set("shared-\(task)", key: "shared")
                            _ = try await keychain.get("shared")
                        case 2:
                            // Written then removed: must be gone at the end.
                            try await keychain.set(Account(userId: "\(task)", password: "p", membership: false), key: "temp-\(task)")
                            try await keychain.remove("temp-\(task)")
                        default:
                            // Readers: a value or nil, never an error.
                            _ = try await keychain.get("own-\(task - 3)")
                            _ = try await keychain.allKeys()
                            _ = try await keychain.contains("shared")
                        }
                    }
                }
                try await group.waitForAll()
            }
            let ownKeys = stride(from: 0, to: 120, by: 4).map { "own-\($0)" }
            #expect(Set(try await keychain.allKeys()) == Set(ownKeys + ["shared"]))
            for task in stride(from: 0, to: 120, by: 4) {
                #expect(try await keychain.get("own-\(task)") == "final-\(task)")
            }
            let shared = try #require(try await keychain.get("shared"))
            #expect(stride(from: 1, to: 120, by: 4).map { "shared-\($0)" }.contains(shared))
        }
    }

    @Test("Concurrent set and remove of one key from many threads never fail and leave at most one item")
    func setRemoveRace() async throws {
        try await withTestKeychain { (_: TestKeychain) async throws in
            let keychain = Keychain(service: "svc")
            try await withThrowingTaskGroup(of: Void.self) { group in
                for task in 0..<100 {
                    group.addTask {
                        if task.isMultiple(of: 2) {
                            try await keychain.set("v\(task)", key: "contended")
                        } else {
                            try await keychain.remove("contended")
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await keychain.allItems().count <= 1)
        }
    }

    @Test("set adds again when the item is deleted between its add and its update")
    func setRetriesAfterConcurrentDelete() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            // The first add reports a duplicate and the update then finds nothing: what another
            // process deleting the item in between looks like.
            let recorder = SecItemRecorder(adds: [errSecDuplicateItem], updates: [errSecItemNotFound])
            let keychain = Keychain(service: "svc").recording(recorder)
            try keychain.set("v", key: "k")
            #expect(recorder.calls(to: "add").count == 2)
            #expect(recorder.calls(to: "update").count == 1)
            #expect(try Keychain(service: "svc").get("k") == "v")
        }
    }

    @Test("set gives up after a bounded number of rounds and reports the last status")
    func setIsBounded() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            let rounds = Keychain(service: "svc").maximumWriteAttempts
            let recorder = SecItemRecorder(adds: Array(repeating: errSecDuplicateItem, count: 100),
                                           updates: Array(repeating: errSecItemNotFound, count: 100))
            let keychain = Keychain(service: "svc").recording(recorder)
            #expect(throws: KeychainError.self) { try keychain.set("v", key: "k") }
            #expect(recorder.calls(to: "add").count == rounds)
            #expect(recorder.calls(to: "update").count == rounds)
        }
    }

    @Test("set never reads before writing: an upsert is add then, on a duplicate, update")
    func setDoesNotReadFirst() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            let recorder = SecItemRecorder()
            let keychain = Keychain(service: "svc").recording(recorder)
            try keychain.set("one", key: "k")
            try keychain.set("two", key: "k")
            #expect(recorder.recorded.map(\.function) == ["add", "add", "update"])
        }
    }
}
