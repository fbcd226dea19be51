#if DEBUG
import Foundation
@testable import KeychainStore
import KeychainTestSupport
import Testing

/// A write whose turn at the file comes just after another process changed the password (and with
/// it the class keys) must see that change: it seals under the keys the keychain has now, or is
/// refused. Sealed under the keys this process held before, its row would open under no key the
/// keychain still has.
@Suite struct WriteDuringPasswordChangeTests {
    enum Write: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case add, update, merge
        var testDescription: String { rawValue }
    }

    @Test("A write that begins its transaction right after another connection changed the password is readable with the new password, or was refused",
          arguments: Write.allCases)
    func writeRightAfterAPasswordChange(_ write: Write) throws {
        let keychain = try TestKeychain()
        let file = keychain.file
        try file.setPassword("old", currentPassword: nil)
        try add(file, "before", "first")  // this connection has the old era's keys in hand
        let other = try KeychainFile.open(at: file.url, deviceKey: keychain.deviceKey)
        defer {
            file.forgetSharedUnlockState()
            other.forgetSharedUnlockState()
        }

        // When the write opens its transaction, the other connection changes the password first.
        let changed = Flag()
        let plan = FaultPlan(.interleaving({
            changed.set((try? other.setPassword("new", currentPassword: "old")) != nil)
        }, at: .sqliteBegin))
        let (account, expectedAfterRefusal): (String, String?) = write == .update ? ("before", "first") : ("racing", nil)
        let written: Result<Void, KeychainStoreError> = FaultInjection.$plan.withValue(plan) {
            Result { () throws(KeychainStoreError) in
                switch write {
                case .add: try add(file, account, "second")
                case .update:
                    _ = try file.update(ItemQuery(itemClass: .genericPassword, filters: ["acct": .string(account)]),
                                        changes: [:], secret: Data("second".utf8), identity: .unconfigured)
                case .merge:
                    let item = KeychainFile.IncomingItem(itemClass: .genericPassword,
                                                         attributes: ["acct": .string(account), "svce": .string("s"), "pdmn": .string("ak")],
                                                         secret: Data("second".utf8), created: Date(), modified: Date())
                    _ = try file.merge([item], identity: .unconfigured)
                }
            }
        }
        #expect(plan.fired(.sqliteBegin) == 1)
        #expect(changed.value, "the other connection's password change did not happen")

        let reopened = try KeychainFile.open(at: file.url, deviceKey: keychain.deviceKey)
        defer { reopened.forgetSharedUnlockState() }
        try reopened.unlock(password: "new")
        switch written {
        case .success:
            #expect(read(reopened, account) == "second", "the write succeeded under keys the keychain no longer has")
        case .failure(let error):
            #expect(error.status == KeychainStoreError.interactionNotAllowed.status, "refused for another reason: \(error)")
            #expect(read(reopened, account) == expectedAfterRefusal)
        }
        if write != .update { #expect(read(reopened, "before") == "first") }
    }

    func add(_ file: KeychainFile, _ account: String, _ secret: String) throws(KeychainStoreError) {
        _ = try file.add(.genericPassword, attributes: ["acct": .string(account), "svce": .string("s"), "pdmn": .string("ak")],
                         secret: Data(secret.utf8), identity: .unconfigured)
    }

    /// The secret of `account`, or nil when it cannot be read.
    func read(_ file: KeychainFile, _ account: String) -> String? {
        let items = try? file.find(ItemQuery(itemClass: .genericPassword, filters: ["acct": .string(account)]),
                                   identity: .unconfigured, limit: 1, includeSecrets: true)
        return items?.first?.secret.map { String(decoding: $0, as: UTF8.self) }
    }

    /// A Boolean set from the interleaved action.
    final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var stored = false
        var value: Bool { lock.withLock { stored } }
        func set(_ value: Bool) { lock.withLock { stored = value } }
    }
}
#endif
