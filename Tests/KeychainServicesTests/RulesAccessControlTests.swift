import Foundation
import KeychainAuthentication
import KeychainServices
import KeychainStore
import KeychainTestSupport
import Testing

/// Access control through the SecItem API: the keychain password stands for the device passcode,
/// asked for by the installed authenticator (here a scripted one), reused through an LAContext.
@Suite struct RulesAccessControlTests {
    static let password = "keychain-pw"

    /// A person answering prompts from a script (KeychainTestSupport).
    typealias User = ScriptedUser

    /// Runs `body` against a fresh keychain (with the password, unless nil) with `user` at the prompt.
    func withKeychain(password: String? = password, user: User = User(.cancel), biometry: Bool = false,
                      _ body: () throws -> Void) throws {
        let keychain = try TestKeychain()
        if let password { try keychain.file.setPassword(password, currentPassword: nil) }
        try KeychainAuthenticators.withAuthenticator(user.authenticator, simulatedBiometry: biometry) {
            try keychain.run { try body() }
        }
    }

    func control(_ flags: SecAccessControlCreateFlags, _ protection: CFString = kSecAttrAccessibleWhenUnlocked) throws -> SecAccessControl {
        try #require(SecAccessControlCreateWithFlags(nil, protection, flags, nil))
    }

    let base = item([kSecClass: kSecClassGenericPassword, kSecAttrService: "svc", kSecAttrAccount: "owner"])
    var protectedItem: Item { base.with([kSecValueData: Data("only-the-owner".utf8)]) }
    var readQuery: Item { base.with([kSecReturnData: kCFBooleanTrue!, kSecUseOperationPrompt: "Read the owner's secret"]) }

    @Test("An item requiring user presence cannot be added to a keychain without a password: errSecNotAvailable")
    func presenceNeedsPassword() throws {
        try withKeychain(password: nil) { () throws in
            #expect(try add(protectedItem.with([kSecAttrAccessControl: control(.userPresence)])) == errSecNotAvailable)
            #expect(try add(protectedItem.with([kSecAttrAccessControl: control(.devicePasscode)])) == errSecNotAvailable)
            #expect(exists(base) == errSecItemNotFound)
        }
    }

    @Test("Reading a protected item asks with the operation prompt and returns the data for the right password")
    func rightPassword() throws {
        let user = User(.password(Self.password))
        try withKeychain(user: user) { () throws in
            #expect(try add(protectedItem.with([kSecAttrAccessControl: control(.userPresence)])) == errSecSuccess)
            #expect(user.requests.isEmpty, "adding does not prompt")
            let (status, result) = copyMatching(readQuery)
            #expect(status == errSecSuccess)
            #expect(result as? Data == Data("only-the-owner".utf8))
            #expect(user.requests.map(\.reason) == ["Read the owner's secret"])
        }
    }

    @Test("Three wrong passwords are errSecAuthFailed")
    func wrongPassword() throws {
        let user = User(.password("wrong"))
        try withKeychain(user: user) { () throws in
            #expect(try add(protectedItem.with([kSecAttrAccessControl: control(.devicePasscode)])) == errSecSuccess)
            #expect(copyMatching(readQuery).status == errSecAuthFailed)
            #expect(user.requests.count == 3)
        }
    }

    @Test("A cancelled prompt is errSecUserCanceled")
    func cancelled() throws {
        try withKeychain(user: User(.cancel)) { () throws in
            #expect(try add(protectedItem.with([kSecAttrAccessControl: control(.userPresence)])) == errSecSuccess)
            #expect(copyMatching(readQuery).status == errSecUserCanceled)
        }
    }

    @Test("No terminal to ask on is errSecInteractionNotAllowed")
    func notInteractive() throws {
        try withKeychain(user: User(.notInteractive)) { () throws in
            #expect(try add(protectedItem.with([kSecAttrAccessControl: control(.userPresence)])) == errSecSuccess)
            #expect(copyMatching(readQuery).status == errSecInteractionNotAllowed)
        }
    }

    @Test("kSecUseAuthenticationUIFail is errSecInteractionNotAllowed without asking")
    func authenticationUIFail() throws {
        let user = User(.password(Self.password))
        try withKeychain(user: user) { () throws in
            #expect(try add(protectedItem.with([kSecAttrAccessControl: control(.userPresence)])) == errSecSuccess)
            #expect(copyMatching(readQuery.with([kSecUseAuthenticationUI: kSecUseAuthenticationUIFail])).status == errSecInteractionNotAllowed)
            #expect(user.requests.isEmpty)
        }
    }

    @Test("kSecUseAuthenticationUISkip leaves protected items out without asking")
    func authenticationUISkip() throws {
        let user = User(.password(Self.password))
        try withKeychain(user: user) { () throws in
            #expect(try add(protectedItem.with([kSecAttrAccessControl: control(.userPresence)])) == errSecSuccess)
            #expect(add(item([kSecClass: kSecClassGenericPassword, kSecAttrService: "svc", kSecAttrAccount: "open",
                              kSecValueData: Data("free".utf8)])) == errSecSuccess)
            let skip = item([kSecClass: kSecClassGenericPassword, kSecAttrService: "svc", kSecReturnAttributes: kCFBooleanTrue!,
                             kSecMatchLimit: kSecMatchLimitAll, kSecUseAuthenticationUI: kSecUseAuthenticationUISkip])
            let (status, result) = copyMatching(skip)
            #expect(status == errSecSuccess)
            #expect((result as? [[String: Any]])?.compactMap { $0["acct"] as? String } == ["open"])
            #expect(copyMatching(readQuery.with([kSecUseAuthenticationUI: kSecUseAuthenticationUISkip])).status == errSecItemNotFound)
            #expect(user.requests.isEmpty)
        }
    }

    @Test("An LAContext with interactionNotAllowed gives errSecInteractionNotAllowed instead of a prompt")
    func contextInteractionNotAllowed() throws {
        let user = User(.password(Self.password))
        try withKeychain(user: user) { () throws in
            #expect(try add(protectedItem.with([kSecAttrAccessControl: control(.userPresence)])) == errSecSuccess)
            let context = LAContext()
            context.interactionNotAllowed = true
            #expect(copyMatching(readQuery.with([kSecUseAuthenticationContext: context])).status == errSecInteractionNotAllowed)
            #expect(user.requests.isEmpty)
        }
    }

    @Test("An LAContext carries one authentication across calls until it is invalidated")
    func contextReuse() throws {
        let user = User(.password(Self.password))
        try withKeychain(user: user) { () throws in
            #expect(try add(protectedItem.with([kSecAttrAccessControl: control(.userPresence)])) == errSecSuccess)
            let context = LAContext()
            let query = readQuery.with([kSecUseAuthenticationContext: context])
            #expect(copyMatching(query).status == errSecSuccess)
            #expect(copyMatching(query).status == errSecSuccess)
            #expect(user.requests.count == 1)
            // Without the context, the next read asks again.
            #expect(copyMatching(readQuery).status == errSecSuccess)
            #expect(user.requests.count == 2)
            context.invalidate()
            #expect(copyMatching(query).status == errSecAuthFailed)
            #expect(user.requests.count == 2)
        }
    }

    @Test("A context evaluated with evaluatePolicy opens protected items without another prompt")
    func evaluatedContext() async throws {
        let user = User(.password(Self.password))
        let keychain = try TestKeychain()
        try keychain.file.setPassword(Self.password, currentPassword: nil)
        try await KeychainAuthenticators.withAuthenticator(user.authenticator, simulatedBiometry: false) { () async throws in
            try await KeychainContext.withContext(keychain.context) { () async throws in
                #expect(try add(protectedItem.with([kSecAttrAccessControl: control(.userPresence)])) == errSecSuccess)
                let context = LAContext()
                #expect(try await context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Sign in"))
                #expect(copyMatching(readQuery.with([kSecUseAuthenticationContext: context])).status == errSecSuccess)
                #expect(user.requests.count == 1)
            }
        }
    }

    @Test("Attribute-only queries of a protected item need authentication too")
    func attributeOnly() throws {
        let user = User(.cancel)
        try withKeychain(user: user) { () throws in
            #expect(try add(protectedItem.with([kSecAttrAccessControl: control(.userPresence)])) == errSecSuccess)
            #expect(copyMatching(base.with([kSecReturnAttributes: kCFBooleanTrue!])).status == errSecUserCanceled)
            #expect(exists(base) == errSecUserCanceled)
            #expect(user.requests.count == 2)
        }
    }

    @Test("Updating a protected item needs authentication; deleting it does not")
    func updateAndDelete() throws {
        let user = User(.cancel)
        try withKeychain(user: user) { () throws in
            #expect(try add(protectedItem.with([kSecAttrAccessControl: control(.userPresence)])) == errSecSuccess)
            #expect(update(base, item([kSecAttrLabel: "renamed"])) == errSecUserCanceled)
            #expect(user.requests.count == 1)
            #expect(delete(base) == errSecSuccess)
            #expect(user.requests.count == 1)
        }
    }

    @Test("Updating only kSecAttrAccessible removes the item's access control")
    func accessibleUpdateDropsControl() throws {
        let user = User(.password(Self.password))
        try withKeychain(user: user) { () throws in
            #expect(try add(protectedItem.with([kSecAttrAccessControl: control(.userPresence)])) == errSecSuccess)
            #expect(update(base, item([kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlock])) == errSecSuccess)
            #expect(user.requests.count == 1, "the update itself authenticates")
            #expect(secret(of: base) == Data("only-the-owner".utf8))
            #expect(user.requests.count == 1, "the item no longer asks")
            let control = try #require(attributes(of: base)?["accc"] as? SecAccessControl)
            #expect(try control == self.control([], kSecAttrAccessibleAfterFirstUnlock))
        }
    }

    @Test("An access control given in an update protects an item that had none")
    func updateAddsControl() throws {
        let user = User(.cancel)
        try withKeychain(user: user) { () throws in
            #expect(add(protectedItem) == errSecSuccess)
            #expect(try update(base, item([kSecAttrAccessControl: control(.devicePasscode)])) == errSecSuccess)
            #expect(copyMatching(readQuery).status == errSecUserCanceled)
        }
    }

    @Test("The stored access control comes back with the item's attributes, flags and protection")
    func accessControlReturned() throws {
        let user = User(.password(Self.password))
        try withKeychain(user: user) { () throws in
            let stored = try control([.userPresence], kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly)
            #expect(add(protectedItem.with([kSecAttrAccessControl: stored])) == errSecSuccess)
            let found = try #require(attributes(of: base))
            #expect(found["accc"] as? SecAccessControl == stored)
            #expect(found["pdmn"] as? String == "akpu")
        }
    }

    @Test("Biometry-only items cannot be bound on a machine without biometry: errSecAuthFailed")
    func biometryOnlyWithoutBiometry() throws {
        try withKeychain { () throws in
            #expect(try add(protectedItem.with([kSecAttrAccessControl: control(.biometryCurrentSet)])) == errSecAuthFailed)
            #expect(try add(protectedItem.with([kSecAttrAccessControl: control(.biometryAny)])) == errSecAuthFailed)
            #expect(try add(protectedItem.with([kSecAttrAccessControl: control(.companion)])) == errSecAuthFailed)
            #expect(exists(base) == errSecItemNotFound)
        }
    }

    @Test("Biometry or the passcode falls back to the password")
    func orFallsBack() throws {
        let user = User(.password(Self.password))
        try withKeychain(user: user) { () throws in
            #expect(try add(protectedItem.with([kSecAttrAccessControl: control([.biometryAny, .or, .devicePasscode])])) == errSecSuccess)
            #expect(copyMatching(readQuery).status == errSecSuccess)
            #expect(user.requests.first?.policy == .deviceOwnerAuthentication)
        }
    }

    @Test("Biometry and the passcode together cannot be met without biometry")
    func andNeedsBoth() throws {
        try withKeychain { () throws in
            #expect(try add(protectedItem.with([kSecAttrAccessControl: control([.biometryAny, .devicePasscode])])) == errSecAuthFailed)
        }
    }

    @Test("With simulated biometry, a biometry-only item is stored and its reading asks under the biometric policy")
    func simulatedBiometry() throws {
        let user = User(.password(Self.password))
        try withKeychain(user: user, biometry: true) { () throws in
            #expect(try add(protectedItem.with([kSecAttrAccessControl: control(.biometryCurrentSet)])) == errSecSuccess)
            #expect(copyMatching(readQuery).status == errSecSuccess)
            #expect(user.requests.first?.policy == .deviceOwnerAuthenticationWithBiometrics)
        }
    }

    @Test("Requirements that guard only private-key use ask nothing when a password is read")
    func privateKeyUsage() throws {
        let user = User(.cancel)
        try withKeychain(user: user) { () throws in
            #expect(try add(protectedItem.with([kSecAttrAccessControl: control([.privateKeyUsage, .userPresence])])) == errSecSuccess)
            #expect(secret(of: base) == Data("only-the-owner".utf8))
            #expect(user.requests.isEmpty)
        }
    }

    @Test("An application password is not supported yet: errSecUnimplemented, nothing stored")
    func applicationPassword() throws {
        try withKeychain { () throws in
            #expect(try add(protectedItem.with([kSecAttrAccessControl: control(.applicationPassword)])) == errSecUnimplemented)
            #expect(exists(base) == errSecItemNotFound)
        }
    }

    @Test("kSecUseAuthenticationContext that is not an LAContext cannot be externalised: errSecAuthFailed in every call, and nothing changes")
    func contextMustBeLAContext() throws {
        try withKeychain { () throws in
            #expect(add(protectedItem) == errSecSuccess)
            for notAContext: Any in ["context", Data([1, 2, 3]), 42] {
                #expect(copyMatching(readQuery.with([kSecUseAuthenticationContext: notAContext])).status == errSecAuthFailed)
                #expect(update(base.with([kSecUseAuthenticationContext: notAContext]), item([kSecAttrLabel: "changed"])) == errSecAuthFailed)
                #expect(delete(base.with([kSecUseAuthenticationContext: notAContext])) == errSecAuthFailed)
            }
            // Nothing was deleted.
            #expect(delete(base) == errSecSuccess)
        }
    }

    @Test("kSecUseCredentialReference takes data; anything else is errSecParam")
    func credentialReferenceMustBeData() throws {
        try withKeychain { () throws in
            #expect(copyMatching(readQuery.with([kSecUseCredentialReference: "reference"])).status == errSecParam)
        }
    }
}
