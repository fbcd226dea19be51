import Foundation
import Testing
import KeychainServices
import KeychainStore
import KeychainTestSupport

/// App groups (`com.apple.security.application-groups`) are access groups, listed after the
/// keychain access groups and the application identifier (`SecTaskCopyAccessGroups` in
/// Security's `server_entitlement_helpers.c`).
@Suite("Rules: app groups are access groups")
struct RulesApplicationGroupTests {
    /// The identity an entitlements file gives, read as a process reads `SWIFT_KEYCHAIN_ENTITLEMENTS`.
    private static func identity(entitlements body: String, in keychain: TestKeychain) throws -> ClientIdentity {
        let path = keychain.directory.appendingPathComponent("app.entitlements").path
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict>\(body)</dict></plist>
            """
        try Data(plist.utf8).write(to: URL(fileURLWithPath: path))
        return try ClientIdentity.fromEnvironment(["SWIFT_KEYCHAIN_ENTITLEMENTS": path])
    }

    private static let appGroup = "group.com.example.family"

    @Test("An add naming an app group succeeds, and another app of the group reads it", arguments: PasswordClass.allCases)
    func addToApplicationGroup(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        let app = try Self.identity(entitlements: """
            <key>application-identifier</key><string>TEAM.com.example.app</string>
            <key>com.apple.security.application-groups</key><array><string>\(Self.appGroup)</string></array>
            """, in: keychain)
        let sibling = try Self.identity(entitlements: """
            <key>application-identifier</key><string>TEAM.com.example.widget</string>
            <key>com.apple.security.application-groups</key><array><string>\(Self.appGroup)</string></array>
            """, in: keychain)
        try keychain.run(as: app) {
            #expect(add(passwordClass.withSecret.with([kSecAttrAccessGroup: Self.appGroup])) == errSecSuccess)
            let stored = try #require(attributes(of: passwordClass.base))
            #expect(stored["agrp"] as? String == Self.appGroup)
        }
        keychain.run(as: sibling) {
            #expect(secret(of: passwordClass.base.with([kSecAttrAccessGroup: Self.appGroup])) == Data("s3cret".utf8))
        }
        // A process outside the group still may not name it.
        keychain.run(as: ClientIdentity(accessGroups: ["TEAM.com.example.other"])) {
            #expect(exists(passwordClass.base.with([kSecAttrAccessGroup: Self.appGroup])) == errSecMissingEntitlement)
        }
    }

    @Test("Adds without a group go to the first of: keychain access groups, application identifier, app groups")
    func defaultGroupOrder() throws {
        let keychain = try TestKeychain()
        let groupsKey = "<key>com.apple.security.application-groups</key><array><string>\(Self.appGroup)</string><string>group.two</string></array>"
        let all = try Self.identity(entitlements: """
            <key>keychain-access-groups</key><array><string>TEAM.shared</string></array>
            <key>application-identifier</key><string>TEAM.app</string>\(groupsKey)
            """, in: keychain)
        #expect(all.accessGroups == ["TEAM.shared", "TEAM.app", Self.appGroup, "group.two"])
        let noKeychainGroups = try Self.identity(entitlements: "<key>application-identifier</key><string>TEAM.app</string>\(groupsKey)", in: keychain)
        #expect(noKeychainGroups.accessGroups == ["TEAM.app", Self.appGroup, "group.two"])
        // macOS's spelling of the application identifier counts when the plain one is absent.
        let macOSSpelling = try Self.identity(entitlements: "<key>com.apple.application-identifier</key><string>TEAM.mac</string>\(groupsKey)", in: keychain)
        #expect(macOSSpelling.accessGroups == ["TEAM.mac", Self.appGroup, "group.two"])
        let onlyGroups = try Self.identity(entitlements: groupsKey, in: keychain)
        #expect(onlyGroups.accessGroups == [Self.appGroup, "group.two"])
        try keychain.run(as: onlyGroups) {
            #expect(add(PasswordClass.genp.withSecret) == errSecSuccess)
            let stored = try #require(attributes(of: PasswordClass.genp.base))
            #expect(stored["agrp"] as? String == Self.appGroup)
        }
    }
}
