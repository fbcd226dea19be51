#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Foundation
import KeychainAuthentication
import KeychainStore

/// The implementations behind the four SecItem functions. Each returns a status; nothing here
/// throws out or traps on bad input.
enum SecItemImplementation {
    static func add(_ dictionary: NSDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
        if let keeper = KeeperClient.route() { return KeeperClient.send(.add, dictionary, result: result, to: keeper) }
        let entries = dictionary.entries
        if let status = IdentityDecomposition.add(dictionary, entries, result) { return status }
        return run {
            if entries.containsKey(in: entitledOnAdd) { throw StatusError(errSecMissingEntitlement) }
            let context = try KeychainContext.current()
            try requireAccessGroups(context.identity)
            let query = try QueryParser.parse(entries, for: .add)
            if query.isAuthenticationSkip { throw StatusError(errSecParam) }
            if let reference = query.persistentReference, reference.identity == nil { throw StatusError(errSecParam) }
            // Matches Security: a search key or kSecUseItemList makes SecItemAdd return success
            // without storing anything (its add routine returns a bool as a status).
            if !query.matchKeys.isEmpty || query.limit != nil || query.useItemList { return }
            guard case .table(let itemClass) = query.requestClass else { throw StatusError(errSecParam) }
            try checkAuthenticationContext(query)
            let item = try context.file.add(itemClass, attributes: query.attributes, secret: query.valueData,
                                             identity: context.identity,
                                             accessControl: try query.accessControl.map(storableAccessControl))
            if query.returnsAnything, let result {
                var stored = item
                if stored.secret == nil && query.valueData == nil { stored.secret = nil }
                result.pointee = ResultShaper.value(for: stored, query: query, forAdd: true,
                                                    references: ReferenceContext(file: context.file, query: query))
            }
        }
    }

    static func copyMatching(_ dictionary: NSDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
        if let keeper = KeeperClient.route() { return KeeperClient.send(.copyMatching, dictionary, result: result, to: keeper) }
        let entries = dictionary.entries
        if let status = IdentityDecomposition.copyMatching(dictionary, entries, result) { return status }
        return run {
            let context = try KeychainContext.current()
            try requireAccessGroups(context.identity)
            let query = try QueryParser.parse(entries, for: .copyMatching)
            if query.useItemList { throw StatusError(errSecParam) }
            if let reference = query.persistentReference {
                // A persistent reference names one item: no other attribute may narrow it.
                if !query.attributes.isEmpty || query.anySynchronizable { throw StatusError(errSecParam) }
                if reference.identity == nil { throw StatusError(errSecItemNotFound) }
            }
            try checkSearchKeys(query)
            let limit = query.limit ?? .count(1)
            if limit == .count(0) { throw StatusError(errSecItemNotFound) }
            guard case .table(let itemClass) = query.requestClass else {
                try checkAuthenticationContext(query)
                var matches = try IdentitySearch.find(query, in: context, limit: CertificateMatchFilter(query.matchKeys) == nil ? limit : .all)
                if let filter = try CertificateMatchFilter(query.matchKeys)?.withIssuerChain({ () throws(KeychainStoreError) in
                    try IssuerChain.load(context.file, identity: context.identity)
                }) {
                    matches = matches.filter { filter.accepts($0.certificate) }
                    if let maximum = limit.maximum { matches = Array(matches.prefix(maximum)) }
                }
                guard !matches.isEmpty else { throw StatusError(errSecItemNotFound) }
                let value = IdentitySearch.searchResult(matches, query: query, references: ReferenceContext(file: context.file, query: query))
                if let result, !(limit.isOne && !query.returnsAnything) { result.pointee = value }
                return
            }
            let host = query.matchKeys["m_HostOrSubdomainOfHost"] as? String
            let itemList = ItemListFilter(query.matchKeys["m_ItemList"])
            let certificateFilter = itemClass == .certificate
                ? try CertificateMatchFilter(query.matchKeys)?.withIssuerChain({ () throws(KeychainStoreError) in
                    try IssuerChain.load(context.file, identity: context.identity)
                }) : nil
            let postFiltered = host != nil || itemList != nil || certificateFilter != nil
            try checkAuthenticationContext(query)
            // A ref is rebuilt from the item's data (a key's material, a certificate's DER).
            let wantsReference = query.returnRef && ItemReferences.type(for: itemClass) != nil
            var items = try context.file.find(query.itemQuery(itemClass), identity: context.identity,
                                              limit: postFiltered ? nil : limit.maximum,
                                              includeSecrets: query.returnData || wantsReference || certificateFilter != nil,
                                              authorize: ItemAuthentication(query: query, file: context.file).authorizer)
            if let host { items = items.filter { hostMatches($0.attributes[AttributeName.server], host) } }
            if let itemList { items = items.filter(itemList.contains) }
            if let certificateFilter { items = items.filter(certificateFilter.accepts) }
            if postFiltered, let maximum = limit.maximum { items = Array(items.prefix(maximum)) }
            guard !items.isEmpty else { throw StatusError(errSecItemNotFound) }
            if let result {
                let value = ResultShaper.searchResult(items, query: query, references: ReferenceContext(file: context.file, query: query))
                if !(limit.isOne && !query.returnsAnything) { result.pointee = value }
            }
        }
    }

    static func update(_ dictionary: NSDictionary, _ changes: NSDictionary) -> OSStatus {
        if let keeper = KeeperClient.route() { return KeeperClient.send(.update, dictionary, changes: changes, result: nil, to: keeper) }
        let entries = dictionary.entries
        if let status = IdentityDecomposition.update(dictionary, entries, changes) { return status }
        let changeEntries = changes.entries
        return run {
            if entries.containsKey(in: entitledInUpdateQuery) || changeEntries.containsKey(in: entitledInUpdateChanges) {
                throw StatusError(errSecMissingEntitlement)
            }
            let context = try KeychainContext.current()
            try requireAccessGroups(context.identity)
            try checkExplicitWriteGroup(entries, context.identity)
            let query = try QueryParser.parse(entries, for: .update)
            // On iOS, return keys set to true in an update's query are errSecParam.
            if query.returnsAnything || !query.matchKeys.isEmpty || query.limit != nil || query.useItemList
                || query.isAuthenticationSkip { throw StatusError(errSecParam) }
            if let reference = query.persistentReference, reference.identity == nil {
                if !query.attributes.isEmpty { throw StatusError(errSecParam) }
                throw StatusError(errSecItemNotFound)
            }
            let parsedChanges = try QueryParser.parseChanges(changeEntries, for: query.requestClass)
            try checkAuthenticationContext(query)
            guard case .table(let itemClass) = query.requestClass else { throw StatusError(errSecItemNotFound) }
            // A new access control replaces the old; a new accessibility alone drops it, as on
            // Apple, where the item then keeps only a protection class and no access control.
            let accessControl: AccessControlChange
            if let control = parsedChanges.accessControl {
                accessControl = .set(try storableAccessControl(control))
            } else {
                accessControl = parsedChanges.attributes[AttributeName.accessible] != nil ? .remove : .keep
            }
            try context.file.update(query.itemQuery(itemClass), changes: parsedChanges.attributes,
                                    secret: parsedChanges.secret, identity: context.identity,
                                    tombstones: query.useTombstones, accessControl: accessControl,
                                    authorize: ItemAuthentication(query: query, file: context.file).authorizer)
        }
    }

    static func delete(_ dictionary: NSDictionary) -> OSStatus {
        if let keeper = KeeperClient.route() { return KeeperClient.send(.delete, dictionary, result: nil, to: keeper) }
        let entries = dictionary.entries
        if let status = IdentityDecomposition.delete(dictionary, entries) { return status }
        return run {
            let context = try KeychainContext.current()
            try requireAccessGroups(context.identity)
            try checkExplicitWriteGroup(entries, context.identity)
            let query = try QueryParser.parse(entries, for: .delete)
            // Delete always acts on every match. iOS's keychain refuses every search key here,
            // kSecMatchLimitAll included; macOS's accepts kSecMatchLimitAll, and code written for
            // macOS (wrapper libraries on every non-iOS platform) sends it, so it is taken to mean
            // what delete does anyway. Any other limit would promise fewer deletions than happen.
            if !query.matchKeys.isEmpty || query.isAuthenticationSkip { throw StatusError(errSecParam) }
            if query.limit != nil && !limitIsNamedAll(entries) { throw StatusError(errSecParam) }
            try checkAuthenticationContext(query)
            if let reference = query.persistentReference, reference.identity == nil {
                if !query.attributes.isEmpty { throw StatusError(errSecParam) }
                throw StatusError(errSecItemNotFound)
            }
            switch query.requestClass {
            case .table(let itemClass):
                try context.file.delete(query.itemQuery(itemClass), identity: context.identity,
                                        tombstones: query.useTombstones)
            case .identity:
                // An identity is a certificate and its private key; with neither stored as a pair
                // there is never one to delete.
                throw StatusError(errSecItemNotFound)
            }
        }
    }

    /// Whether `kSecMatchLimit` is the constant `kSecMatchLimitAll`, not a number that the parser
    /// also reads as "all" (a negative count): only the constant is what macOS code sends.
    private static func limitIsNamedAll(_ entries: DictionaryEntries) -> Bool {
        (entries.value(forKey: "m_Limit") as? String) == "m_LimitAll"
    }

    /// An access control as the engine stores it, refused when this platform cannot honour it:
    /// biometry without (simulated) biometry or a companion device cannot be bound to the item,
    /// which Apple reports as errSecAuthFailed; an application password is not supported yet,
    /// and storing the item without it would silently weaken what the caller asked for.
    static func storableAccessControl(_ control: SecAccessControl) throws(StatusError) -> ItemAccessControl {
        if control.flags.contains(.applicationPassword) { throw StatusError(errSecUnimplemented) }
        if PresenceRequirement(control, biometryAvailable: ItemAuthentication.biometryAvailable) == .unsatisfiable {
            throw StatusError(errSecAuthFailed)
        }
        return control.itemAccessControl
    }

    /// `kSecUseAuthenticationContext` takes an LAContext, which Security's client turns into its
    /// externalised form before anything else; anything else cannot be externalised, which is
    /// errSecAuthFailed, before any key of the dictionary is read. `kSecUseCredentialReference`
    /// is that form (data, checked by the parser), which no context here has: it is accepted and
    /// proves nothing.
    static func checkAuthenticationContext(_ query: ParsedQuery) throws(StatusError) {
        guard let context = query.authenticationContext, !query.authenticationContextIsCredentialReference else { return }
        if !(context is LAContext) { throw StatusError(errSecAuthFailed) }
    }

    /// Search keys that only make sense for some classes (issuers and policies for certificates
    /// and identities, for instance): Apple rejects them for the others, and so do we.
    private static func checkSearchKeys(_ query: ParsedQuery) throws(StatusError) {
        let certificateLike = query.requestClass == .table(.certificate) || query.requestClass == .identity
        for (key, value) in query.matchKeys {
            switch key {
            case "m_Issuers":
                if !certificateLike { throw StatusError(errSecUnimplemented) }
            case "m_Policy":
                // Security reads the value as a policy while parsing, before it looks at the class.
                guard value is SecPolicy else { throw StatusError(errSecParam) }
                if !certificateLike { throw StatusError(errSecUnimplemented) }
            case "m_HostOrSubdomainOfHost":
                guard query.requestClass == .table(.internetPassword) else { throw StatusError(errSecUnimplemented) }
                guard value is String else { throw StatusError(errSecParam) }
            case "m_ValidOnDate":
                guard value is Date || value is NSNull else { throw StatusError(errSecParam) }
            case "m_TrustedOnly":
                guard ValueConversion.boolean(value) != nil else { throw StatusError(errSecParam) }
            case "m_EmailAddressIfPresent":
                guard value is String else { throw StatusError(errSecParam) }
            default:
                break // case-insensitive, item list, subject searches: accepted and ignored, as on Apple
            }
        }
    }

    /// Private attributes that Security's XPC server accepts only from callers holding a private
    /// entitlement, checked before the keychain reads the dictionary: CloudKit plaintext fields
    /// (dspk, pcss, pcsk, pcsi), inet's extra secret fields, and the system-bound flag. No process
    /// holds those entitlements here, so naming one is `errSecMissingEntitlement`.
    private static let plaintextFields: Set<String> = ["dspk", "pcss", "pcsk", "pcsi"]
    static let entitledOnAdd: Set<String> = plaintextFields.union(QueryParser.entitledInternetFields).union(["sysb"])
    /// Update checks dspk and sysb in the query (sic), the other fields in attributesToUpdate.
    private static let entitledInUpdateQuery: Set<String> = ["dspk", "sysb"]
    private static let entitledInUpdateChanges: Set<String> = Set(["pcss", "pcsk", "pcsi"]).union(QueryParser.entitledInternetFields)


    /// Security refuses every call from a caller that holds no access group, before it reads
    /// the dictionary (`errSecMissingEntitlement`).
    static func requireAccessGroups(_ identity: ClientIdentity) throws(StatusError) {
        if identity.accessGroups.isEmpty && !identity.seesAllGroups { throw StatusError(errSecMissingEntitlement) }
    }

    /// Update and delete check an explicit `kSecAttrAccessGroup` against the groups the caller
    /// may write before the dictionary is parsed, so a group not held (or a value that is not a
    /// string at all) is `errSecMissingEntitlement` even when the query is otherwise wrong or
    /// would match nothing. The token group is never writable.
    private static func checkExplicitWriteGroup(_ entries: DictionaryEntries, _ identity: ClientIdentity) throws(StatusError) {
        guard let value = entries.value(forKey: AttributeName.accessGroup) else { return }
        guard let group = value as? String, group != "com.apple.token",
              identity.seesAllGroups || identity.accessGroups.contains(group) else { throw StatusError(errSecMissingEntitlement) }
    }

    /// `kSecMatchHostOrSubdomainOfHost`: the server is the host or ends with "." + host.
    private static func hostMatches(_ server: AttributeValue?, _ host: String) -> Bool {
        guard let server = server?.stringValue else { return false }
        return server == host || server.hasSuffix("." + host)
    }

    /// Runs an operation, turning every failure into its status.
    static func run(_ body: () throws -> Void) -> OSStatus {
        do {
            try body()
            return errSecSuccess
        } catch {
            return status(for: error)
        }
    }

    /// The one place engine and parser errors become `OSStatus` values.
    static func status(for error: any Error) -> OSStatus {
        switch error {
        case let error as StatusError: return error.status
        case let error as KeychainStoreError: return error.status
        default: return errSecInternal
        }
    }
}
#endif
