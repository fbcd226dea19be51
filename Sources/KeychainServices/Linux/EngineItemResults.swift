#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Foundation
package import KeychainStore

/// What a program that calls the engine directly needs in order to answer exactly as its
/// SecItem calls would (keychainctl-full's per-credential commands, through their executor):
/// an item's attributes in the shapes SecItemCopyMatching returns them, and the authorizer a
/// SecItem call gives the engine.
package enum EngineItemResults {
    /// `item`'s attributes as SecItemCopyMatching returns them with `kSecReturnAttributes`
    /// (``ResultShaper/searchAttributes(_:)``), keyed by string.
    package static func attributes(_ item: StoredItem) -> [String: Any] {
        ResultObjects.dictionary(ResultShaper.searchAttributes(item)) ?? [:]
    }

    /// The authorizer of one SecItem call on `file` whose dictionary has no authentication
    /// context, operation prompt or UI choice: a terminal prompt for the keychain password,
    /// through the installed authenticator, once per call.
    package static func authorizer(for file: KeychainFile) -> ItemAuthorizer {
        ItemAuthentication(query: ParsedQuery(), file: file).authorizer
    }
}
#endif
