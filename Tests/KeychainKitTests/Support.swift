import Foundation
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
func withTestKeychain<T>(identity: ClientIdentity = .unconfigured, _ body: (TestKeychain) async throws -> T) async throws -> T {
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
