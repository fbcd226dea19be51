import Foundation
import Testing
import KeychainAuthentication
import KeychainServices
import KeychainTestSupport
@testable import KeychainKit

@Suite("Access control and authentication")
struct AccessControlTests {
    @Test("accessControl returns a new keychain with the flags and prompt, leaving the original alone")
    func configuration() {
        let base = Keychain(service: "svc")
        let guarded = base.accessControl(.userPresence, prompt: "Unlock your password")
        #expect(base.accessControlFlags == nil && base.authenticationPrompt == nil)
        #expect(guarded.accessControlFlags == .userPresence)
        #expect(guarded.authenticationPrompt == "Unlock your password")
    }

    @Test("An add with access control sends kSecAttrAccessControl and no kSecAttrAccessible")
    func addCarriesAccessControl() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            let recorder = SecItemRecorder()
            let keychain = Keychain(service: "svc").accessibility(.whenPasscodeSetThisDeviceOnly)
                .accessControl(.userPresence).recording(recorder)
            _ = try? keychain.set("v", key: "k")
            let add = try #require(recorder.calls(to: "add").first)
            let accessControl = try #require(add.query[kSecAttrAccessControl as String] as? SecAccessControl)
            #expect(SecAccessControlGetProtection(accessControl) as? String == "akpu")
            #expect(add.query[kSecAttrAccessible as String] == nil)
        }
    }

    @Test("A requirement needing authentication in a keychain without a password is KeychainError.notAvailable and stores nothing")
    func presenceWithoutPassword() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            let keychain = Keychain(service: "svc").accessControl(.userPresence, prompt: "Read the test secret")
            let error = #expect(throws: KeychainError.self) { try keychain.set("v", key: "k") }
            #expect(error == .notAvailable)
            #expect(error?.operation == .add)
            #expect(try !Keychain(service: "svc").contains("k"))
        }
    }

    @Test("A protected value is read back through the authenticator, once per context")
    func protectedRoundTrip() throws {
        try withTestKeychain { (test: TestKeychain) throws in
            try test.file.setPassword("pw", currentPassword: nil)
            let asked = Asked()
            let user: ProgrammableAuthenticator = .programmable { request in
                asked.record(request.reason)
                return .password("pw")
            }
            try KeychainAuthenticators.withAuthenticator(user, simulatedBiometry: false) { () throws in
                let guarded = Keychain(service: "svc").accessControl(.userPresence, prompt: "Read the test secret")
                try guarded.set("v", key: "k")
                #expect(asked.reasons.isEmpty)
                let session = guarded.authenticationContext(LAContext())
                #expect(try session.get("k") == "v")
                #expect(try session.get("k") == "v")
                #expect(asked.reasons == ["Read the test secret"])
            }
        }
    }

    @Test("A cancelled prompt is KeychainError.userCanceled, not a missing value")
    func cancelledRead() throws {
        try withTestKeychain { (test: TestKeychain) throws in
            try test.file.setPassword("pw", currentPassword: nil)
            try KeychainAuthenticators.withAuthenticator(ProgrammableAuthenticator.programmable { _ in .cancel }, simulatedBiometry: false) { () throws in
                let guarded = Keychain(service: "svc").accessControl(.devicePasscode)
                try guarded.set("v", key: "k")
                #expect(throws: KeychainError.userCanceled) { _ = try guarded.get("k") }
            }
        }
    }

    @Test("Incompatible access-control flags throw errSecParam from creating the access control")
    func invalidFlags() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            let keychain = Keychain(service: "svc").accessControl([.biometryAny, .biometryCurrentSet])
            let error = #expect(throws: KeychainError.self) { try keychain.set("v", key: "k") }
            #expect(error == .param)
            #expect(error?.operation == .createAccessControl)
        }
    }

    @Test("Access control together with synchronizable is refused with errSecParam, as on Apple platforms")
    func accessControlWithSynchronizable() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            let keychain = Keychain(service: "svc").synchronizable(true).accessControl([])
            #expect(throws: KeychainError.param) { try keychain.set("v", key: "k") }
        }
    }

    @Test("The authentication prompt is sent with reads and updates but not with adds")
    func promptIsSent() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            let recorder = SecItemRecorder()
            let keychain = Keychain(service: "svc").authenticationPrompt("Why we ask").recording(recorder)
            try keychain.set("v1", key: "k")
            try keychain.set("v2", key: "k")
            _ = try keychain.get("k")
            #expect(recorder.calls(to: "add").allSatisfy { $0.query[kSecUseOperationPrompt as String] == nil })
            #expect(recorder.calls(to: "update").allSatisfy { $0.query[kSecUseOperationPrompt as String] as? String == "Why we ask" })
            #expect(recorder.calls(to: "copyMatching").allSatisfy { $0.query[kSecUseOperationPrompt as String] as? String == "Why we ask" })
        }
    }

    @Test("An authentication context is passed, the same object, with every call")
    func contextIsReused() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            let recorder = SecItemRecorder()
            let context = LAContext()
            let keychain = Keychain(service: "svc").authenticationContext(context).recording(recorder)
            _ = try? keychain.set("v", key: "k")
            _ = try? keychain.get("k")
            _ = try? keychain.allKeys()
            _ = try? keychain.remove("k")
            #expect(recorder.recorded.count >= 4)
            for call in recorder.recorded {
                #expect(call.query[kSecUseAuthenticationContext as String] as? LAContext === context, "\(call.function)")
            }
        }
    }

    @Test("authenticationContext returns a new keychain and leaves the original without one")
    func contextConfiguration() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            let recorder = SecItemRecorder()
            let base = Keychain(service: "svc")
            _ = base.authenticationContext(LAContext())
            _ = try base.recording(recorder).get("k")
            #expect(recorder.recorded.allSatisfy { $0.query[kSecUseAuthenticationContext as String] == nil })
        }
    }
}

/// The reasons an authenticator was asked with.
final class Asked: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    func record(_ reason: String) { lock.withLock { stored.append(reason) } }
    var reasons: [String] { lock.withLock { stored } }
}
