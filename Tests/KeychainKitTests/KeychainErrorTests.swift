import Foundation
import Testing
import KeychainServices
import KeychainStore
import KeychainTestSupport
@testable import KeychainKit

@Suite("KeychainError")
struct KeychainErrorTests {
    @Test("A thrown KeychainError is caught by `catch KeychainError.itemNotFound`")
    func catchByStatic() {
        var caught = false
        do {
            throw KeychainError(status: errSecItemNotFound, operation: .read)
        } catch KeychainError.interactionNotAllowed {
            Issue.record("matched the wrong status")
        } catch KeychainError.itemNotFound {
            caught = true
        } catch {
            Issue.record("not matched: \(error)")
        }
        #expect(caught)
    }

    @Test("Errors with the same status are equal whatever their context")
    func equalityIsByStatus() {
        let withContext = KeychainError(status: errSecMissingEntitlement, operation: .add, accessGroup: "group.a")
        #expect(withContext == .missingEntitlement)
        #expect(withContext.hashValue == KeychainError.missingEntitlement.hashValue)
        #expect(KeychainError.itemNotFound != .interactionNotAllowed)
    }

    @Test("A status with no name is kept whole, not folded into a generic case")
    func unknownStatusIsKept() {
        let error = KeychainError(status: -123_456)
        #expect(error.status == -123_456)
        #expect(error.name == nil)
        #expect(error.description.contains("-123456"))
    }

    @Test("An NSError in the OSStatus domain matches the static of its code")
    func nsErrorMatches() {
        let error: any Error = NSError(domain: "NSOSStatusErrorDomain", code: Int(errSecInteractionNotAllowed))
        #expect(KeychainError.interactionNotAllowed ~= error)
        #expect(!(KeychainError.itemNotFound ~= error))
    }

    @Test("Bridged to NSError a KeychainError keeps its status as the code")
    func bridgesToNSError() {
        let error = KeychainError.duplicateItem as NSError
        #expect(error.domain == "NSOSStatusErrorDomain")
        #expect(error.code == Int(errSecDuplicateItem))
    }

    @Test("Locked and not found have different statuses and different descriptions")
    func lockedIsNotNotFound() {
        #expect(KeychainError.interactionNotAllowed.status == errSecInteractionNotAllowed)
        #expect(KeychainError.itemNotFound.status == errSecItemNotFound)
        #expect(KeychainError.interactionNotAllowed.description != KeychainError.itemNotFound.description)
        #expect(KeychainError.interactionNotAllowed.description.contains("locked"))
        #expect(KeychainError.interactionNotAllowed.description.contains("not treat this as a missing item"))
    }

    @Test("A description names the status, its number, what happened and what to do")
    func descriptionShape() {
        let text = KeychainError(status: errSecDuplicateItem, operation: .add).description
        #expect(text.hasPrefix("Adding the item failed with errSecDuplicateItem (-25299)"))
        #expect(text.contains("What to do:"))
    }

    @Test("A -34018 description names the access group that was missing")
    func missingEntitlementNamesGroup() {
        let error = KeychainError(status: errSecMissingEntitlement, operation: .read, accessGroup: "TEAMID.com.example.shared")
        #expect(error.description.contains("\"TEAMID.com.example.shared\""))
        #expect(error.description.contains("SWIFT_KEYCHAIN_ACCESS_GROUPS"))
    }

    @Test("Advice comes from scripts/status-codes.tsv, with the access group filled in and shared by grouped codes")
    func adviceTexts() {
        let grant = "to this process: on Linux list it in SWIFT_KEYCHAIN_ACCESS_GROUPS or in the entitlements file named by "
            + "SWIFT_KEYCHAIN_ENTITLEMENTS; on Apple platforms add it to the keychain-access-groups entitlement (with the team prefix). "
            + "Or configure the Keychain with a group the process holds."
        #expect(KeychainError(status: errSecMissingEntitlement, operation: .add, accessGroup: "g.x").recoverySuggestion == "grant \"g.x\" " + grant)
        #expect(KeychainError.missingEntitlement.recoverySuggestion == "grant the group " + grant)
        let storage = "check free disk space and the permissions of the keychain file and its folder, then retry."
        for error in [KeychainError.diskFull, .io, .wrPerm, .readOnly, .internalComponent] {
            #expect(error.recoverySuggestion == storage)
        }
        #expect(KeychainError.upgradePending.recoverySuggestion == "retry after the keychain is unlocked.")
        #expect(KeychainError.wrongSecVersion.recoverySuggestion
            == "this status is not one keychain item calls usually return; look it up by name in Apple's Security documentation.")
        for (status, _, _) in statusCatalogue {
            let error = KeychainError(status: status)
            #expect(error.recoverySuggestion?.contains("{") == false, "\(error.status)")
        }
    }

    @Test("Every named status has a description with advice", arguments: KeychainErrorCatalogueTests.apple.map { KeychainError(status: $0.0) })
    func everyStatusDescribed(error: KeychainError) {
        #expect(!error.summary.isEmpty)
        #expect(error.recoverySuggestion?.isEmpty == false)
        #expect(error.description.contains("\(error.status)"))
    }

    @Test("A keychain that names a group the process does not hold throws -34018 citing the group")
    func missingGroupFromTheKeychain() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            let keychain = Keychain(service: "svc").accessGroup("group.not.held")
            let error = #expect(throws: KeychainError.self) { try keychain.set(sentinelSecret, key: "k") }
            #expect(error == .missingEntitlement)
            #expect(error?.accessGroup == "group.not.held")
            #expect(error?.description.contains("\"group.not.held\"") == true)
            #expect(error?.description.contains(sentinelSecret) == false)
        }
    }
}

@Suite("KeychainKitError")
struct KeychainKitErrorTests {
    @Test("A decoding failure names the key and type but not the stored bytes")
    func decodingFailureHidesBytes() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            let keychain = Keychain(service: "svc")
            try keychain.set("{\"userId\": \"\(sentinelSecret)\"", key: "broken")
            do {
                _ = try keychain.get("broken", as: Account.self)
                Issue.record("decoding should fail")
            } catch let error as KeychainKitError {
                guard case .notDecodable(let key, let type, _) = error else { Issue.record("wrong case \(error)"); return }
                #expect(key == "broken")
                #expect(type == "Account")
                #expect(!error.description.contains(sentinelSecret))
                #expect(!String(reflecting: error).contains(sentinelSecret))
                #expect(!error.localizedDescription.contains(sentinelSecret))
            }
        }
    }

    @Test("A value the encoder refuses is a notEncodable error and nothing is stored")
    func encodingFailure() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            let keychain = Keychain(service: "svc")
            #expect(throws: KeychainKitError.self) { try keychain.set(Double.nan, key: "nan") }
            #expect(try keychain.contains("nan") == false)
        }
    }

    @Test("Data that is not UTF-8 read as a string is a notDecodable error, not nil")
    func nonUTF8String() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            let keychain = Keychain(service: "svc")
            try keychain.set(Data([0xFF, 0xFE, 0xFD]), key: "bytes")
            #expect(throws: KeychainKitError.notDecodable(key: "bytes", type: "String", reason: "the data is not UTF-8")) {
                try keychain.get("bytes")
            }
        }
    }
}
