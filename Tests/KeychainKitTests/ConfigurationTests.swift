import Foundation
import Testing
import KeychainServices
import KeychainStore
import KeychainTestSupport
@testable import KeychainKit

@Suite("Construction and configuration")
struct ConfigurationTests {
    @Test("Keychain(service:) holds generic passwords for that service")
    func serviceKeychain() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            let keychain = Keychain(service: "com.example.app")
            #expect(keychain.itemClass == .genericPassword)
            try keychain.set("v", key: "k")
            var result: CFTypeRef?
            let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "com.example.app",
                                        kSecAttrAccount as String: "k", kSecReturnData as String: true]
            #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
            #expect(result as? Data == Data("v".utf8))
        }
    }

    @Test("Keychain(server:) with a URL stores host, port, path and protocol as internet-password attributes")
    func serverKeychainAttributes() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            let keychain = try Keychain(server: URL(string: "https://api.example.com:8443/v1")!, protocolType: .https,
                                        authenticationType: .htmlForm)
            try keychain.set("pw", key: "alice")
            let item = try #require(try keychain.attributes("alice"))
            #expect(item.itemClass == .internetPassword)
            #expect(item.server == "api.example.com")
            #expect(item.port == 8443)
            #expect(item.path == "/v1")
            #expect(item.protocolType == .https)
            #expect(item.authenticationType == .htmlForm)
        }
    }

    @Test("A server string that is not a URL with a scheme and a host is a thrown error",
          arguments: ["AAA", "www.example.com", "", "not a url", "https://", "file:///etc/passwd", "mailto:alice@example.com", "://x"])
    func invalidServerStrings(server: String) {
        #expect(throws: KeychainKitError.self) {
            try Keychain(server: server, protocolType: .https)
        }
    }

    @Test("A server URL without a host is a thrown error")
    func invalidServerURL() {
        #expect(throws: KeychainKitError.self) {
            try Keychain(server: URL(fileURLWithPath: "/tmp"), protocolType: .https)
        }
    }

    @Test("Seed 002: two servers given as URLs keep separate values (no shared empty server)")
    func seed002ServersStaySeparate() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            var keychain = try Keychain(server: "https://tkgstrator.work", protocolType: .https)
            try keychain.set("AAA", key: "value")
            keychain = try Keychain(server: "https://tkgstrator.works", protocolType: .https)
            try keychain.set("BBB", key: "value")
            keychain = try Keychain(server: "https://tkgstrator.work", protocolType: .https)
            #expect(try keychain.get("value") == "AAA")
        }
    }

    @Test("Seed 002: a path makes a separate server, one per account")
    func seed002PathsStaySeparate() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            let first = try Keychain(server: "https://tkgstrator.work/account01", protocolType: .https)
            let second = try Keychain(server: "https://tkgstrator.work/account02", protocolType: .https)
            try first.set("XXXXXXXX", key: "userId")
            try second.set("YYYYYYYY", key: "userId")
            #expect(try first.get("userId") == "XXXXXXXX")
            #expect(try second.get("userId") == "YYYYYYYY")
        }
    }

    @Test("A trailing slash names the same server as none")
    func trailingSlash() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            try Keychain(server: "https://example.com/", protocolType: .https).set("v", key: "k")
            #expect(try Keychain(server: "https://example.com", protocolType: .https).get("k") == "v")
        }
    }

    @Test("Configuration returns a new value and leaves the original unchanged")
    func configurationIsImmutable() {
        let base = Keychain(service: "svc")
        let configured = base.accessibility(.afterFirstUnlock).synchronizable(true).accessGroup("g").label("L").comment("C")
            .authenticationPrompt("P")
        #expect(base.accessibility == nil && base.synchronizable == .no && base.accessGroup == nil)
        #expect(base.label == nil && base.comment == nil && base.authenticationPrompt == nil)
        #expect(configured.accessibility == .afterFirstUnlock)
        #expect(configured.synchronizable == .yes)
        #expect(configured.accessGroup == "g")
        #expect(configured.label == "L" && configured.comment == "C" && configured.authenticationPrompt == "P")
        #expect(configured.service == "svc")
    }

    @Test("synchronizable takes true, false and any")
    func synchronizableModes() {
        let keychain = Keychain(service: "svc")
        #expect(keychain.synchronizable(true).synchronizable == .yes)
        #expect(keychain.synchronizable(false).synchronizable == .no)
        #expect(keychain.synchronizable(.any).synchronizable == .any)
    }

    @Test("Label, comment and accessibility are written with the item", arguments: [Accessibility.afterFirstUnlock, .whenUnlockedThisDeviceOnly, .afterFirstUnlockThisDeviceOnly])
    func attributesAreWritten(accessibility: Accessibility) throws {
        try withTestKeychain { (_: TestKeychain) throws in
            let keychain = Keychain(service: "svc").label("Example login").comment("made by a test").accessibility(accessibility)
            try keychain.set("v", key: "k")
            let item = try #require(try keychain.attributes("k"))
            #expect(item.label == "Example login")
            #expect(item.comment == "made by a test")
            #expect(item.accessibility == accessibility)
        }
    }

    @Test("Without configured accessibility the item gets Apple's default, when unlocked")
    func defaultAccessibility() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            let keychain = Keychain(service: "svc")
            try keychain.set("v", key: "k")
            #expect(try keychain.attributes("k")?.accessibility == .whenUnlocked)
        }
    }

    @Test("A keychain with an access group writes to that group")
    func accessGroupIsWritten() throws {
        try withTestKeychain(identity: ClientIdentity(accessGroups: ["group.a", "group.b"])) { (_: TestKeychain) throws in
            try Keychain(service: "svc", accessGroup: "group.b").set("v", key: "k")
            #expect(try Keychain(service: "svc").attributes("k")?.accessGroup == "group.b")
            #expect(try Keychain(service: "svc").accessGroup("group.a").get("k") == nil)
        }
    }

    @Test("Accessibility, protocol and authentication raw values are Apple's constants")
    func rawValuesAreApples() {
        #expect(Accessibility.whenUnlocked.rawValue == kSecAttrAccessibleWhenUnlocked as String)
        #expect(Accessibility.afterFirstUnlock.rawValue == kSecAttrAccessibleAfterFirstUnlock as String)
        #expect(Accessibility.whenPasscodeSetThisDeviceOnly.rawValue == kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly as String)
        #expect(Accessibility.whenUnlockedThisDeviceOnly.rawValue == kSecAttrAccessibleWhenUnlockedThisDeviceOnly as String)
        #expect(Accessibility.afterFirstUnlockThisDeviceOnly.rawValue == kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly as String)
        #expect(ProtocolType.https.rawValue == kSecAttrProtocolHTTPS as String)
        #expect(ProtocolType.ssh.rawValue == kSecAttrProtocolSSH as String)
        #expect(ProtocolType.pop3S.rawValue == kSecAttrProtocolPOP3S as String)
        #expect(AuthenticationType.default.rawValue == kSecAttrAuthenticationTypeDefault as String)
        #expect(AuthenticationType.htmlForm.rawValue == kSecAttrAuthenticationTypeHTMLForm as String)
        #expect(AuthenticationType.httpBasic.rawValue == kSecAttrAuthenticationTypeHTTPBasic as String)
    }
}
