import Foundation
import KeychainServices
import KeychainStore
import Testing

/// keychainctl and the SecItem API share one keychain: what one stores, the other finds.
@Suite struct CLIInteropTests {
    /// The sandbox's default keychain, opened in this process as an application without any
    /// configured access group would open it.
    static func applicationContext(_ sandbox: CLISandbox) throws -> KeychainContext {
        let key = try DeviceKey.load(from: sandbox.home.appendingPathComponent("config/swift-keychain/device-key"), create: false)
        let file = try KeychainFile.open(at: sandbox.defaultKeychain, deviceKey: key, create: false)
        return KeychainContext(file: file, identity: .unconfigured)
    }

    @Test("A password added by keychainctl is found by SecItemCopyMatching in an application")
    func cliToApplication() throws {
        let sandbox = try CLISandbox()
        try sandbox.addGeneric(account: "alice", service: "example.com", password: "from-cli")
        let context = try Self.applicationContext(sandbox)
        var result: CFTypeRef?
        let status = KeychainContext.withContext(context) {
            SecItemCopyMatching([kSecClass as String: kSecClassGenericPassword,
                                 kSecAttrService as String: "example.com",
                                 kSecAttrAccount as String: "alice",
                                 kSecReturnData as String: true] as CFDictionary, &result)
        }
        #expect(status == errSecSuccess)
        #expect(result as? Data == Data("from-cli".utf8))
    }

    @Test("An internet password added by keychainctl with -r htps matches kSecAttrProtocolHTTPS")
    func protocolMatchesConstant() throws {
        let sandbox = try CLISandbox()
        #expect(try sandbox.run(["add-internet-password", "-a", "alice", "-s", "example.com", "-r", "htps", "-w", "web"]).status == 0)
        let context = try Self.applicationContext(sandbox)
        var result: CFTypeRef?
        let status = KeychainContext.withContext(context) {
            SecItemCopyMatching([kSecClass as String: kSecClassInternetPassword,
                                 kSecAttrServer as String: "example.com",
                                 kSecAttrProtocol as String: kSecAttrProtocolHTTPS,
                                 kSecAttrAuthenticationType as String: kSecAttrAuthenticationTypeDefault,
                                 kSecReturnData as String: true] as CFDictionary, &result)
        }
        #expect(status == errSecSuccess)
        #expect(result as? Data == Data("web".utf8))
    }

    @Test("-C stores the type as the number an application reads back from kSecAttrType")
    func typeIsANumber() throws {
        let sandbox = try CLISandbox()
        try sandbox.addGeneric(account: "a", service: "notes", password: "x", extra: ["-C", "note"])
        let context = try Self.applicationContext(sandbox)
        var result: CFTypeRef?
        let status = KeychainContext.withContext(context) {
            SecItemCopyMatching([kSecClass as String: kSecClassGenericPassword,
                                 kSecAttrService as String: "notes",
                                 kSecReturnAttributes as String: true] as CFDictionary, &result)
        }
        #expect(status == errSecSuccess)
        let attributes = result as? NSDictionary
        #expect((attributes?[kSecAttrType as String] as? NSNumber)?.uint32Value == 0x6E6F7465)
    }

    @Test("A password an application stored with SecItemAdd is found by keychainctl")
    func applicationToCLI() throws {
        let sandbox = try CLISandbox()
        try sandbox.addGeneric(account: "seed", service: "seed", password: "seed") // creates keychain and device key
        let context = try Self.applicationContext(sandbox)
        let status = KeychainContext.withContext(context) {
            SecItemAdd([kSecClass as String: kSecClassGenericPassword,
                        kSecAttrService as String: "app.example",
                        kSecAttrAccount as String: "bob",
                        kSecValueData as String: Data("from-app".utf8)] as CFDictionary, nil)
        }
        #expect(status == errSecSuccess)
        #expect(try sandbox.run(["find-generic-password", "-s", "app.example", "-a", "bob", "-w"]).stdout == "from-app\n")
    }

    @Test("keychainctl sees every access group, and --access-group narrows it to one")
    func accessGroups() throws {
        let sandbox = try CLISandbox()
        try sandbox.addGeneric(account: "seed", service: "seed", password: "seed")
        let context = try Self.applicationContext(sandbox)
        let appContext = KeychainContext(file: context.file, identity: ClientIdentity(accessGroups: ["TEAM.app"]))
        let status = KeychainContext.withContext(appContext) {
            SecItemAdd([kSecClass as String: kSecClassGenericPassword,
                        kSecAttrService as String: "grouped",
                        kSecAttrAccount as String: "carol",
                        kSecValueData as String: Data("in-group".utf8)] as CFDictionary, nil)
        }
        #expect(status == errSecSuccess)
        #expect(try sandbox.run(["find-generic-password", "-s", "grouped", "-w"]).stdout == "in-group\n")
        #expect(try sandbox.run(["find-generic-password", "-s", "grouped", "--access-group", "TEAM.app", "-w"]).stdout == "in-group\n")
        #expect(try sandbox.run(["find-generic-password", "-s", "grouped", "--access-group", "other.group"]).status == 44)
    }
}
