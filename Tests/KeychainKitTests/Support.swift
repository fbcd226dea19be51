import Foundation
import KeychainServices
import KeychainStore
import KeychainTestSupport
@testable import KeychainKit

/// A private keychain for one test, with SecItem calls inside `body` sent to it.
@discardableResult
func withTestKeychain<T>(identity: ClientIdentity = .unconfigured, _ body: (TestKeychain) throws -> T) throws -> T {
    let keychain = try TestKeychain(identity: identity)
    return try keychain.run { try body(keychain) }
}

/// Async form of ``withTestKeychain(identity:_:)``.
@discardableResult
/// Mark `body` `@MainActor` to run it on the main actor.
func withTestKeychain<T: Sendable>(identity: ClientIdentity = .unconfigured,
                                   _ body: @Sendable (TestKeychain) async throws -> T) async throws -> T {
    let keychain = try TestKeychain(identity: identity)
    return try await KeychainContext.withContext(keychain.context) { try await body(keychain) }
}

extension TestKeychain {
    /// Gives the keychain a password and locks it, so class A items (the default) are unavailable.
    func lockWithPassword(_ password: String = "correct horse") throws {
        try file.setPassword(password, currentPassword: nil)
        file.lock()
    }
}

/// A secret no description, log or error may ever contain.
let sentinelSecret = "S3CRET-do-not-print-7f3a"

/// A Codable value of the kind seed 002 stores, one per account.
struct Account: Codable, Equatable, Sendable {
    var userId: String
    var password: String
    var membership: Bool
}

/// Seed 000's read, written as the article writes it (kSec constants, SecItemCopyMatching).
func readLikeTheArticle(service: String, account: String) throws -> String? {
    let query: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword,
        kSecAttrService as String: service,
        kSecAttrAccount as String: account,
        kSecReturnData as String: kCFBooleanTrue!,
        kSecMatchLimit as String: kSecMatchLimitOne,
    ]
    var item: CFTypeRef?
    let status = SecItemCopyMatching(query as CFDictionary, &item)
    if status == errSecItemNotFound { return nil }
    guard status == errSecSuccess else { throw KeychainError(status: status) }
    return (item as? Data).flatMap { String(data: $0, encoding: .utf8) }
}

/// Seed 000's add, written as the article writes it.
func writeLikeTheArticle(service: String, account: String, password: String) throws {
    let query: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword,
        kSecAttrService as String: service,
        kSecAttrAccount as String: account,
        kSecValueData as String: Data(password.utf8),
        kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlocked,
    ]
    let status = SecItemAdd(query as CFDictionary, nil)
    guard status == errSecSuccess else { throw KeychainError(status: status) }
}
