#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Foundation
import KeychainAuthentication
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

    /// The authorizer of one SecItem call on `file` with `operationPrompt` as its
    /// `kSecUseOperationPrompt` (the text shown above the password prompt: what asks, for which
    /// item, in which keychain). By default it asks: a terminal prompt for the keychain password,
    /// through the installed authenticator, once per call (or once for every call given the same
    /// `shared`, which stands for one `kSecUseAuthenticationContext`). With `skip` the call has
    /// `kSecUseAuthenticationUI` = `kSecUseAuthenticationUISkip`: items that need authentication
    /// are left out without a prompt, as Apple's API leaves them out.
    package static func authorizer(for file: KeychainFile, operationPrompt: String = "", skip: Bool = false,
                                   shared: SharedAuthentication? = nil) -> ItemAuthorizer {
        var query = ParsedQuery()
        query.operationPrompt = operationPrompt
        query.authenticationContext = shared?.context
        if skip { query.authenticationUI = kSecUseAuthenticationUISkip as String }
        return ItemAuthentication(query: query, file: file).authorizer
    }

    /// One authentication for several calls of a command (an LAContext given to each as its
    /// `kSecUseAuthenticationContext`): the keychain password typed for the first call serves
    /// the others, so a command that reads two item classes asks once.
    package final class SharedAuthentication: Sendable {
        let context = LAContext()

        package init() {}
    }
}
#endif
