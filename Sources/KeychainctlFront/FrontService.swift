import KeychainStore
import KeychainctlCommandLine
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Serves a ``FrontRequest`` through the engine calls keychainctl-full's SecItem calls make
/// (SecItemImplementation in KeychainServices): the same attributes, coerced for their kinds as
/// QueryParser coerces them, the same identity (the administrator, or only `--access-group`),
/// the same defaults (the label, an internet password's authentication type; the engine's add
/// fills in the access group, accessibility, flags and dates, as for every SecItemAdd; its update
/// sets the modification date, as for every SecItemUpdate).
///
/// Nil whenever keychainctl-full must answer instead: no default keychain yet (it creates it),
/// and every engine error, not-found included (a locked keychain, an item that asks for
/// authentication, a duplicate), so that every message and exit status is that program's.
/// Nothing is changed when nil is returned, so running the command line again there is safe.
enum FrontService {
    /// What a served command line writes.
    struct Output {
        var standardOutput: [UInt8] = []
        var standardError: [UInt8] = []
    }

    /// What to write, or nil to hand the command line on.
    static func serve(_ request: FrontRequest) -> Output? {
        let itemClass: ItemClass = request.item == .generic ? .genericPassword : .internetPassword
        let identity = request.accessGroup.map { ClientIdentity(accessGroups: [$0]) } ?? .administrator()
        // Read once: the environment dictionary is rebuilt from `environ` on every read of
        // ProcessInfo's, a noticeable share of a process this short (BENCHMARKS.md section 4).
        let environment = ProcessInfo.processInfo.environment
        // The installed front is a fully static program (scripts/build-front.sh), whose C library
        // reaches the user database only through shared modules of its own version: without
        // HOME, finding the home folder is left to keychainctl-full.
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        let keychain = KeychainPaths.defaultKeychain(environment: environment)
        do {
            // create: false for both, so that making the default keychain and its device key
            // stays keychainctl-full's (a missing one is an error here, and errors hand on).
            let deviceKey = try DeviceKey.load(from: DeviceKey.defaultLocation(environment: environment), create: false)
            let file = try KeychainFile.open(at: keychain, deviceKey: deviceKey, create: false)
            switch request.action {
            case .find(let show):
                guard let filters = coerced(searchAttributes(request), itemClass),
                      let found = try file.find(ItemQuery(itemClass: itemClass, filters: filters), identity: identity,
                                                limit: 1, includeSecrets: show != .attributes, authorize: nil).first else { return nil }
                let secret = Array(found.secret ?? Data())
                if show == .passwordOnly { return Output(standardOutput: SecurityFormat.passwordOnly(secret) + [UInt8(ascii: "\n")]) }
                guard let listing = listing(found, request: request, keychain: keychain) else { return nil }
                return Output(standardOutput: Array(listing.utf8),
                              standardError: show == .attributesAndPassword ? Array(ItemListing.passwordLine(secret).utf8) : [])
            case .delete:
                // As keychainctl-full: the first match, printed, then deleted by its persistent
                // reference (SecItemDelete with kSecValuePersistentRef); printed only once deleted,
                // so that a failed delete can still be handed on (the bytes of each stream are the same).
                guard let filters = coerced(searchAttributes(request), itemClass),
                      let found = try file.find(ItemQuery(itemClass: itemClass, filters: filters), identity: identity,
                                                limit: 1, includeSecrets: false, authorize: nil).first,
                      let listing = listing(found, request: request, keychain: keychain) else { return nil }
                try file.delete(ItemQuery(itemClass: itemClass, persistentReference: found.persistentReference), identity: identity)
                return Output(standardOutput: Array(listing.utf8), standardError: Array("password has been deleted.\n".utf8))
            case .add(let password, let update):
                // -U: the first item the search finds, changed by its persistent reference (as
                // SecItemUpdate with kSecValuePersistentRef changes it); a new item otherwise.
                if update {
                    guard let filters = coerced(searchAttributes(request), itemClass),
                          let changes = coerced(changedAttributes(request), itemClass) else { return nil }
                    if let existing = try file.find(ItemQuery(itemClass: itemClass, filters: filters), identity: identity,
                                                    limit: 1, includeSecrets: false, authorize: nil).first {
                        try file.update(ItemQuery(itemClass: itemClass, persistentReference: existing.persistentReference),
                                        changes: changes, secret: password.map { Data($0.utf8) }, identity: identity,
                                        authorize: nil)
                        return Output()
                    }
                }
                guard let attributes = coerced(newItemAttributes(request), itemClass) else { return nil }
                _ = try file.add(itemClass, attributes: attributes, secret: Data((password ?? "").utf8), identity: identity)
                return Output()
            }
        } catch {
            return nil
        }
    }

    /// The item as keychainctl-full prints it (``ItemListing``), each value's bytes as it takes
    /// them from SecItem's values (strings as UTF-8, data as is, numbers as four big-endian
    /// bytes, dates in the keychain's time format); nil for a printed attribute holding a real
    /// number, which the front leaves to keychainctl-full.
    static func listing(_ item: StoredItem, request: FrontRequest, keychain: URL) -> String? {
        var unsure = false
        let text = ItemListing.render(keychainPath: keychain.path, generic: request.item == .generic) { name in
            switch item.attributes[name] {
            case .string(let string): return Array(string.utf8)
            case .data(let data): return Array(data)
            case .integer(let number): return SecurityFormat.bigEndianBytes(UInt32(truncatingIfNeeded: number))
            case .date(let seconds): return SecurityFormat.timeDateBytes(referenceSeconds: seconds)
            case .real:
                unsure = true
                return nil
            case nil: return nil
            }
        }
        return unsure ? nil : text
    }

    /// Every attribute given, by its attribute name (keychainctl's `PasswordAttributes.allAttributes`).
    static func givenAttributes(_ request: FrontRequest) -> [String: InputValue] {
        var attributes: [String: InputValue] = [:]
        for (key, value) in request.strings {
            guard let name = attributeNames[key] else { continue }
            // -G is stored as UTF-8 data, every other value as a string.
            attributes[name] = key == "generic" ? .data(Data(value.utf8)) : .string(value)
        }
        if let port = request.port, port != 0 { attributes[AttributeName.port] = .integer(Int64(port)) }
        return attributes
    }

    /// What find searches on (`PasswordAttributes.searchAttributes`): the primary key alone when
    /// it is complete, otherwise everything given. An internet password's primary key includes
    /// the protocol and authentication type, which the front never serves, so only a generic
    /// password's (account and service) can be complete here.
    static func searchAttributes(_ request: FrontRequest) -> [String: InputValue] {
        let all = givenAttributes(request)
        guard request.item == .generic, let account = all[AttributeName.account], let service = all[AttributeName.service] else { return all }
        return [AttributeName.account: account, AttributeName.service: service]
    }

    /// What `-U` sets on the item it finds: what was given, the label defaulting to the service
    /// (or server), as `security` does.
    static func changedAttributes(_ request: FrontRequest) -> [String: InputValue] {
        var attributes = givenAttributes(request)
        if attributes[AttributeName.label] == nil {
            let primary = request.item == .generic ? AttributeName.service : AttributeName.server
            attributes[AttributeName.label] = attributes[primary]
        }
        return attributes
    }

    /// What add stores: ``changedAttributes(_:)``, and a new internet password's authentication
    /// type the default one, as `security` gives it.
    static func newItemAttributes(_ request: FrontRequest) -> [String: InputValue] {
        var attributes = changedAttributes(request)
        if request.item == .internet && attributes[AttributeName.authenticationType] == nil {
            attributes[AttributeName.authenticationType] = .string(PasswordCommandSyntax.newInternetAuthenticationType)
        }
        return attributes
    }

    /// Each value converted for its attribute's kind, as QueryParser converts a SecItem
    /// dictionary's values; nil when one does not convert (keychainctl-full reports it).
    static func coerced(_ attributes: [String: InputValue], _ itemClass: ItemClass) -> [String: AttributeValue]? {
        var result: [String: AttributeValue] = [:]
        for (name, value) in attributes {
            guard let kind = itemClass.schema.attribute(name)?.kind,
                  let converted = try? AttributeValue.coerce(value, to: kind) else { return nil }
            result[name] = converted
        }
        return result
    }

    /// The attribute each option key of ``PasswordCommandSyntax`` sets (the `kSecAttr…` keys of
    /// keychainctl's `PasswordAttributes`).
    static let attributeNames: [String: String] = [
        "account": AttributeName.account,
        "service": AttributeName.service,
        "server": AttributeName.server,
        "label": AttributeName.label,
        "kind": AttributeName.description,
        "comment": AttributeName.comment,
        "generic": AttributeName.generic,
        "securityDomain": AttributeName.securityDomain,
        "path": AttributeName.path,
    ]
}
