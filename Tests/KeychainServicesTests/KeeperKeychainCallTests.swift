import Foundation
@testable import KeychainServices
import KeychainStore
import Testing

/// The keeper's calls on a keychain itself (unlock, password change, the moves): each reads back
/// as it was written, a call that is missing a field or names a user where it may not is
/// malformed, and only root may act on another user's keychain.
struct KeeperKeychainCallTests {
    static let moved = MovedKeychain(image: Data([1, 2, 3]), deviceKey: Data(repeating: 7, count: 32), syncState: Data([9]))

    @Test(arguments: [
        KeeperKeychainCall.unlock(user: 1000, password: "pw", create: true),
        .unlock(user: nil, password: "pw", create: false),
        .changePassword(user: 1000, old: "a", new: "b"),
        .adopt(KeeperKeychainCallTests.moved),
        .adopt(MovedKeychain(image: Data([1]), deviceKey: Data([2]), syncState: nil)),
        .release,
        .forget,
        .lock,
        .status,
    ])
    func aCallReadsBackAsItWent(_ call: KeeperKeychainCall) {
        guard case .keychainCall(let read) = KeeperKeychainCall.classify(call.call.bytes) else {
            Issue.record("\(call) did not read back as a keychain call")
            return
        }
        #expect(read == call)
    }

    @Test func aReplyReadsBackWithTheKeychain() throws {
        let bytes = KeeperKeychainCall.answer(status: errSecSuccess, reply: .init(.released, moved: Self.moved))
        let answer = try KeeperAnswer.read(bytes)
        #expect(answer.status == errSecSuccess)
        guard case .dictionary(let entries) = answer.result else {
            Issue.record("no dictionary in \(answer)")
            return
        }
        #expect(entries.count == 4)
    }

    /// A move names no user: a call that tries (to move someone else's keychain) is malformed.
    @Test func aMoveThatNamesAUserIsMalformed() {
        for operation in [KeeperCall.Operation.adoptKeychain, .releaseKeychain, .forgetKeychain, .lockKeychain, .keychainStatus] {
            var entries = [KeeperEntry(key: .string("user"), value: .integer(0))]
            if operation == .adoptKeychain {
                entries += [KeeperEntry(key: .string("keychain"), value: .data(Data([1]))),
                            KeeperEntry(key: .string("device-key"), value: .data(Data([2])))]
            }
            let call = KeeperCall(operation: operation, query: .dictionary(entries), changes: .null, wantsResult: true)
            #expect(KeeperKeychainCall.classify(call.bytes) == .malformed, "\(operation)")
        }
        let noDeviceKey = KeeperCall(operation: .adoptKeychain, query: .dictionary([KeeperEntry(key: .string("keychain"), value: .data(Data([1])))]),
                                     changes: .null, wantsResult: true)
        #expect(KeeperKeychainCall.classify(noDeviceKey.bytes) == .malformed)
        let emptySyncState = KeeperCall(operation: .adoptKeychain, query: .dictionary([
            KeeperEntry(key: .string("keychain"), value: .data(Data([1]))), KeeperEntry(key: .string("device-key"), value: .data(Data([2]))),
            KeeperEntry(key: .string("sync-state"), value: .string("x")),
        ]), changes: .null, wantsResult: true)
        #expect(KeeperKeychainCall.classify(emptySyncState.bytes) == .malformed)
    }

    @Test func onlyRootActsOnAnotherUsersKeychain() {
        let forAnn = KeeperKeychainCall.unlock(user: 1000, password: "pw", create: false)
        #expect(forAnn.target(callerUserID: 0, callerIsSandboxed: false) == 1000)
        #expect(forAnn.target(callerUserID: 1001, callerIsSandboxed: false) == nil)
        #expect(forAnn.target(callerUserID: 1000, callerIsSandboxed: false) == 1000)
        #expect(KeeperKeychainCall.adopt(Self.moved).target(callerUserID: 1001, callerIsSandboxed: false) == 1001)
        #expect(KeeperKeychainCall.release.target(callerUserID: 1001, callerIsSandboxed: true) == nil, "never for a sandboxed app")
    }
}
