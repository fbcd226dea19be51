import Foundation
import KeychainServices
import KeychainStore
import Testing

/// A long-running process (an app, a daemon) keeps its keychain open while other processes
/// change items. Each of its calls must see every change committed before the call began, as
/// Security's single daemon guarantees on Apple platforms.
@Suite("Cross-process visibility: a process sees what others committed")
struct CrossProcessVisibilityTests {
    static var query: [String: Any] { [
        kSecClass as String: kSecClassInternetPassword,
        kSecAttrServer as String: SeedInternetPasswordTests.server,
    ] }

    /// This process's view of seed 004's item: (status, account, password).
    static func read(_ context: KeychainContext) -> (OSStatus, String?, String?) {
        var search = query
        search[kSecReturnAttributes as String] = true
        search[kSecReturnData as String] = true
        var result: CFTypeRef?
        let status = KeychainContext.withContext(context) { SecItemCopyMatching(search as CFDictionary, &result) }
        let item = result as? [String: Any]
        return (status, item?[kSecAttrAccount as String] as? String,
                (item?[kSecValueData as String] as? Data).map { String(decoding: $0, as: UTF8.self) })
    }

    static func seed(_ arguments: [String], in home: HermeticHome) throws {
        let outcome = try ProofSupport.run(try ProofSupport.product("seed-internet-password"), arguments, environment: home.environment)
        try #require(outcome.status == 0, "\(arguments): \(outcome.stdout) \(outcome.stderr)")
    }

    @Test("An item another process added after this process opened the keychain is found")
    func seesAdd() throws {
        let home = try HermeticHome()
        let context = try home.openKeychain()
        #expect(Self.read(context).0 == errSecItemNotFound)
        try Self.seed(["add", "ivy", "added-elsewhere"], in: home)
        let (status, account, password) = Self.read(context)
        #expect(status == errSecSuccess)
        #expect(account == "ivy")
        #expect(password == "added-elsewhere")
    }

    @Test("After this process read an item, an update by another process is what the next read returns")
    func seesUpdateAfterOwnRead() throws {
        let home = try HermeticHome()
        let context = try home.openKeychain()
        try Self.seed(["add", "jack", "first"], in: home)
        #expect(Self.read(context).2 == "first")
        try Self.seed(["update", "jack", "second"], in: home)
        let (status, _, password) = Self.read(context)
        #expect(status == errSecSuccess)
        #expect(password == "second")
    }

    @Test("After this process added an item, a delete by another process makes the next read errSecItemNotFound")
    func seesDeleteAfterOwnWrite() throws {
        let home = try HermeticHome()
        let context = try home.openKeychain()
        var add = Self.query
        add[kSecAttrAccount as String] = "kate"
        add[kSecValueData as String] = Data("mine".utf8)
        let added = KeychainContext.withContext(context) { SecItemAdd(add as CFDictionary, nil) }
        try #require(added == errSecSuccess)
        #expect(Self.read(context).2 == "mine")
        try Self.seed(["delete"], in: home)
        #expect(Self.read(context).0 == errSecItemNotFound)
    }

    @Test("After another process changed the keychain, this process can still write to it")
    func writesAfterOtherProcessWrote() throws {
        let home = try HermeticHome()
        let context = try home.openKeychain()
        #expect(Self.read(context).0 == errSecItemNotFound)
        try Self.seed(["add", "liam", "elsewhere"], in: home)
        let status = KeychainContext.withContext(context) {
            SecItemUpdate(Self.query as CFDictionary, [kSecValueData as String: Data("here".utf8)] as CFDictionary)
        }
        #expect(status == errSecSuccess)
        try Self.seed(["search"], in: home)
        #expect(Self.read(context).2 == "here")
    }
}
