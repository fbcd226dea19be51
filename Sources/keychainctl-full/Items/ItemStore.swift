import Foundation
import KeychainServices
import KeychainStore
import KeychainctlCommandLine

/// dump-keychain's listing of password items: every item, synchronizable ones too, through the
/// engine with the authorizer a SecItem call would give it (``EngineItemResults``), so that the
/// items that need authentication and are left out can be counted, which SecItem's results do
/// not tell; each item's attributes are in the shapes SecItemCopyMatching returns them.
enum ItemStore {
    /// One found item: its attributes, and its secret when asked for.
    struct Found {
        let attributes: [String: Any]
        let secret: Data?
    }

    /// What a listing found, and how many matches it left out because they need authentication.
    struct Listing {
        var items: [Found] = []
        var skipped = 0
    }

    /// What a listing does with items that need authentication.
    enum Authentication {
        /// Leaves them out (`kSecUseAuthenticationUISkip`), counting them.
        case skip
        /// Asks, with this prompt text, once for every call sharing `shared`.
        case ask(prompt: String, shared: EngineItemResults.SharedAuthentication)
    }

    /// Every item of `kind` in `file`, in the order the keychain keeps them, as
    /// SecItemCopyMatching with kSecMatchLimitAll and kSecAttrSynchronizableAny returns them.
    static func all(_ kind: PasswordCommandSyntax.Item, in file: KeychainFile, identity: ClientIdentity, withSecrets: Bool,
                    authentication: Authentication, context: String) throws(CommandFailure) -> Listing {
        let itemClass: ItemClass = kind == .generic ? .genericPassword : .internetPassword
        var listing = Listing()
        let authorize: ItemAuthorizer
        switch authentication {
        case .skip:
            let skip = EngineItemResults.authorizer(for: file, operationPrompt: "", skip: true)
            authorize = { accessControl throws(KeychainStoreError) -> AuthorizationOutcome in
                let outcome = try skip(accessControl)
                if case .skip = outcome { listing.skipped += 1 }
                return outcome
            }
        case .ask(let prompt, let shared):
            authorize = EngineItemResults.authorizer(for: file, operationPrompt: prompt, shared: shared)
        }
        let items: [StoredItem]
        do {
            items = try file.find(ItemQuery(itemClass: itemClass, anySynchronizable: true), identity: identity, limit: nil,
                                  includeSecrets: withSecrets, authorize: authorize)
        } catch {
            // As a SecItem call's status reads (the engine's reason is for logs, not this line).
            throw .status(error.status, context)
        }
        listing.items = items.map { Found(attributes: EngineItemResults.attributes($0), secret: withSecrets ? ($0.secret ?? Data()) : nil) }
        return listing
    }
}
