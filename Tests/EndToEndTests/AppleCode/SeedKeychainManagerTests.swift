import Foundation
import KeychainServices
import KeychainStore
import Testing

/// Seed 000's code (Examples/SeedKeychainManager), built unchanged but for its import line, run as
/// a program against a private keychain: it must behave as the article says it does.
@Suite("Seed 000 (savePassword… and KeychainManager) as a program")
struct SeedKeychainManagerTests {
    static let service = "com.yourcompany.yourapp"
    static let account = "user@example.com"

    // The article's own messages, in the order its usage examples print them on a fresh keychain.
    static let savedMessage = "Keychain: パスワードが正常に保存されました。"
    static let duplicateMessage = "Keychain: 既に同じアイテムが存在します。"
    static let duplicateCaughtMessage = "Keychain: 保存しようとしたアイテムは既に存在します。"
    static let freshRun = [
        savedMessage,                                   // snippet 1: save
        "Keychain: パスワードが正常に読み出されました。",      // snippet 2: read
        "取得したパスワード: yourSecurePassword",
        duplicateMessage,                               // snippet 3: the second save is a duplicate
        "Keychain: パスワードが正常に更新されました。",
        "Keychain: パスワードが正常に読み出されました。",
        "更新後のパスワード: newSecurePassword",
        "Keychain: パスワードが正常に削除されました。",        // snippet 4: delete, then read finds nothing
        "Keychain: 指定されたアイテムは見つかりませんでした。",
        "パスワードは削除されました。",
        "初回パスワード保存/更新成功",                       // snippet 5: KeychainManager
        "読み出しパスワード: initialPassword123",
        "パスワード更新成功",
        "更新後パスワード: newSecurePassword456",
        "パスワード削除成功",
        "削除後のパスワードは見つかりませんでした。",
    ]

    func runSeed(in home: HermeticHome) throws -> ProofSupport.Outcome {
        let outcome = try ProofSupport.run(try ProofSupport.product("seed-keychain-manager"), environment: home.environment)
        #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
        return outcome
    }

    @Test("On a fresh keychain the program prints exactly what the article says, step by step")
    func freshKeychainOutput() throws {
        let home = try HermeticHome()
        let outcome = try runSeed(in: home)
        #expect(outcome.lines == Self.freshRun)
        #expect(outcome.stderr.isEmpty)
    }

    @Test("The program uses the keychain named by SWIFT_KEYCHAIN_PATH and the device key under XDG_CONFIG_HOME, nothing else")
    func usesEnvironmentLocations() throws {
        let home = try HermeticHome()
        _ = try runSeed(in: home)
        #expect(FileManager.default.fileExists(atPath: home.keychainURL.path))
        #expect(FileManager.default.fileExists(atPath: home.deviceKeyURL.path))
        let xdgDefault = home.root.appendingPathComponent("data/keychains/login.keychain-db")
        #expect(!FileManager.default.fileExists(atPath: xdgDefault.path))
        let homeContents = try FileManager.default.contentsOfDirectory(atPath: home.root.appendingPathComponent("home").path)
        #expect(homeContents.isEmpty)
    }

    @Test("A second run on the same keychain behaves exactly as the first, because the first deleted its item")
    func secondRunMatchesFirst() throws {
        let home = try HermeticHome()
        let first = try runSeed(in: home)
        let second = try runSeed(in: home)
        #expect(second.lines == first.lines)
        #expect(second.lines == Self.freshRun)
    }

    @Test("The article's program leaves no generic password behind once it has run")
    func nothingLeftBehind() throws {
        let home = try HermeticHome()
        _ = try runSeed(in: home)
        let context = try home.openKeychain()
        let status = KeychainContext.withContext(context) {
            SecItemCopyMatching([kSecClass as String: kSecClassGenericPassword,
                                 kSecMatchLimit as String: kSecMatchLimitAll] as CFDictionary, nil)
        }
        #expect(status == errSecItemNotFound)
    }

    @Test("An item another process saved first makes the article's first save a duplicate, and its read returns that process's password")
    func itemFromAnotherProcessIsADuplicate() throws {
        let home = try HermeticHome()
        let context = try home.openKeychain()
        let status = KeychainContext.withContext(context) {
            SecItemAdd([kSecClass as String: kSecClassGenericPassword,
                        kSecAttrService as String: Self.service,
                        kSecAttrAccount as String: Self.account,
                        kSecValueData as String: Data("stored-by-the-test".utf8)] as CFDictionary, nil)
        }
        try #require(status == errSecSuccess)
        let lines = try runSeed(in: home).lines
        #expect(Array(lines.prefix(4)) == [
            Self.duplicateMessage,
            Self.duplicateCaughtMessage,
            "Keychain: パスワードが正常に読み出されました。",
            "取得したパスワード: stored-by-the-test",
        ])
        // The rest of the article runs as on a fresh keychain: update, delete, KeychainManager.
        #expect(Array(lines.dropFirst(4)) == Array(Self.freshRun.dropFirst(3)))
    }
}
