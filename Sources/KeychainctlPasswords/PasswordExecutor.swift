package import KeychainStore
package import KeychainctlCommandLine
#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// Why a ``PasswordExecutor`` run stopped, for the caller to put in its own words (keychainctl-full
/// in `security`'s; the front hands the command line on instead).
package enum PasswordFailure: Error, Sendable {
    /// What was being done when the engine refused: `authentication` is the search asking for an
    /// item's authentication after only items that need it matched.
    package enum Step: Sendable, Equatable { case search, authentication, add, update, delete }

    /// A malformed four-character code: the option's letter and the value.
    case badCode(option: String, value: String)
    /// An engine call failed, at `step`, on keychain number `keychain` of the run's keychains.
    case engine(KeychainStoreError, step: Step, keychain: Int)
    /// No keychain had a matching item.
    case notFound
    /// Something the caller's hooks left unserved (the front: a number that is not an integer
    /// in a printed attribute, `--json`).
    case unserved
}

/// The one executor of the per-credential commands (a ``PasswordRequest``), over the engine,
/// for keychainctl and keychainctl-full. It makes the engine calls keychainctl once made through
/// SecItem (SecItemImplementation in KeychainServices), with the same attributes in the same
/// forms (``PasswordAttributes``), the same identity (the administrator, or only
/// `--access-group`), the same defaults (the label, a new internet password's authentication
/// type; the engine's add fills in the access group, accessibility, flags and dates as for every
/// SecItemAdd), and like `security` it finds the first match and then acts on that one item,
/// by its persistent reference.
///
/// What differs between the two programs are the hooks: which keychains there are and how each
/// opens (keychainctl-full creates the default one, the front does not), who answers an item's
/// authentication (nobody, in the front), how a password to read is read, how `--json` and
/// real numbers print, and where output goes (keychainctl-full writes at once; the front keeps
/// it until the command has succeeded, so that a command it hands on has shown and changed
/// nothing).
///
/// Find and delete search every item, synchronizable ones too (`kSecAttrSynchronizableAny`). In
/// each keychain they first leave out the items whose access control needs the user
/// (`kSecUseAuthenticationUISkip`), so that one such item does not stop a search another item
/// answers; only when nothing else matches there is the first of them asked for
/// (``Authentication/ask``). The items left out are counted for ``skipped``.
package struct PasswordExecutor {
    /// An output stream.
    package enum Stream: Sendable { case output, error }

    /// What an engine call does with a matched item whose access control needs the user.
    package enum Authentication: Sendable, Equatable {
        /// Leaves it out, asking nobody (`kSecUseAuthenticationUISkip`).
        case skip
        /// Asks for the authentication, to read, delete or update it (what the command does).
        case ask
    }

    /// How many keychains the command works on (find and delete search them in order; add uses
    /// the first).
    package var keychainCount: Int
    /// Opens keychain number `index`; what it throws ends the run as it is.
    package var open: (_ index: Int) throws -> KeychainFile
    /// The path printed as `keychain: "…"` for keychain number `index`.
    package var keychainPath: (_ index: Int) -> String
    /// The authorizer for one engine call on `file`, keychain number `index`, that treats items
    /// needing authentication as `authentication` says; nil for none (such an item then fails the
    /// call, whatever `authentication` is).
    package var authorizer: (_ file: KeychainFile, _ index: Int, _ authentication: Authentication) -> ItemAuthorizer?
    /// The bytes of an added item's password; what it throws ends the run as it is.
    package var password: (PasswordRequest.Password) throws -> [UInt8]
    /// The bytes `security` would print for a real number in an attribute, nil when the caller
    /// cannot say (the run then stops with ``PasswordFailure/unserved``).
    package var realNumberBytes: (Double) -> [UInt8]?
    /// find's `--json` text for an item found in keychain number `index`, with the secret when
    /// the command shows it.
    package var json: (_ item: StoredItem, _ index: Int, _ secret: Data?) throws -> [UInt8]
    package var write: (Stream, [UInt8]) -> Void
    /// Told, once the found item has been shown, how many other matches of keychain number
    /// `index` the search left out because they need authentication (called only when some were).
    package var skipped: (_ count: Int, _ index: Int) -> Void

    package init(keychainCount: Int, open: @escaping (Int) throws -> KeychainFile, keychainPath: @escaping (Int) -> String,
                 authorizer: @escaping (KeychainFile, Int, Authentication) -> ItemAuthorizer?,
                 password: @escaping (PasswordRequest.Password) throws -> [UInt8],
                 realNumberBytes: @escaping (Double) -> [UInt8]?, json: @escaping (StoredItem, Int, Data?) throws -> [UInt8],
                 write: @escaping (Stream, [UInt8]) -> Void, skipped: @escaping (Int, Int) -> Void = { _, _ in }) {
        self.keychainCount = keychainCount
        self.open = open
        self.keychainPath = keychainPath
        self.authorizer = authorizer
        self.password = password
        self.realNumberBytes = realNumberBytes
        self.json = json
        self.write = write
        self.skipped = skipped
    }

    /// Runs `request`.
    package func run(_ request: PasswordRequest) throws {
        let attributes = try PasswordAttributes(request)
        let identity = request.accessGroup.map { ClientIdentity(accessGroups: [$0]) } ?? .administrator()
        let itemClass: ItemClass = request.item == .generic ? .genericPassword : .internetPassword
        switch request.action {
        case .find(let show, let json):
            let (found, index, _, skippedCount) = try first(attributes, itemClass, identity: identity, withSecret: show != .attributes)
            defer { if skippedCount > 0 { skipped(skippedCount, index) } }
            if json {
                write(.output, try self.json(found, index, show == .attributes ? nil : (found.secret ?? Data())))
                return
            }
            let secret = Array(found.secret ?? Data())
            if show == .passwordOnly {
                write(.output, SecurityFormat.passwordOnly(secret) + [UInt8(ascii: "\n")])
                return
            }
            write(.output, Array(try listing(found, item: request.item, keychain: index).utf8))
            if show == .attributesAndPassword { write(.error, Array(ItemListing.passwordLine(secret).utf8)) }
        case .delete:
            // Printed, then deleted (SecItemDelete with kSecValuePersistentRef), as `security` does.
            let (found, index, file, skippedCount) = try first(attributes, itemClass, identity: identity, withSecret: false)
            write(.output, Array(try listing(found, item: request.item, keychain: index).utf8))
            do {
                try file.delete(ItemQuery(itemClass: itemClass, persistentReference: found.persistentReference), identity: identity)
            } catch {
                throw PasswordFailure.engine(error, step: .delete, keychain: index)
            }
            write(.error, Array("password has been deleted.\n".utf8))
            if skippedCount > 0 { skipped(skippedCount, index) }
        case .add(let given, let update):
            let secret = try given.map(password)
            let file = try open(0)
            if update, try add(toExisting: attributes, itemClass, in: file, secret: secret, identity: identity) { return }
            do {
                _ = try file.add(itemClass, attributes: try PasswordAttributes.coerced(attributes.new, itemClass),
                                 secret: Data(secret ?? []), identity: identity)
            } catch {
                throw PasswordFailure.engine(error, step: .add, keychain: 0)
            }
        }
    }

    /// `-U`: changes the first item the search finds (SecItemUpdate with kSecValuePersistentRef),
    /// the password only when one was given; false when none matches.
    private func add(toExisting attributes: PasswordAttributes, _ itemClass: ItemClass, in file: KeychainFile, secret: [UInt8]?,
                     identity: ClientIdentity) throws -> Bool {
        let existing: StoredItem?
        do {
            existing = try file.find(ItemQuery(itemClass: itemClass, filters: try PasswordAttributes.coerced(attributes.search, itemClass)),
                                     identity: identity, limit: 1, includeSecrets: false, authorize: authorizer(file, 0, .ask)).first
        } catch {
            throw PasswordFailure.engine(error, step: .search, keychain: 0)
        }
        guard let existing else { return false }
        do {
            try file.update(ItemQuery(itemClass: itemClass, persistentReference: existing.persistentReference),
                            changes: try PasswordAttributes.coerced(attributes.stored, itemClass), secret: secret.map { Data($0) },
                            identity: identity, authorize: authorizer(file, 0, .ask))
        } catch {
            throw PasswordFailure.engine(error, step: .update, keychain: 0)
        }
        return true
    }

    /// The first item matching `attributes` in the first keychain that has one, that
    /// keychain's number, the keychain, and how many matches there were left out because they
    /// need authentication. In each keychain, an item that needs authentication is asked for
    /// only when no other item matches there.
    private func first(_ attributes: PasswordAttributes, _ itemClass: ItemClass, identity: ClientIdentity,
                       withSecret: Bool) throws -> (StoredItem, Int, KeychainFile, skipped: Int) {
        for index in 0..<keychainCount {
            let file = try open(index)
            let query: ItemQuery
            let skippedCount = SkipCount()
            do {
                // Synchronizable items too (kSecAttrSynchronizableAny), as `security` on macOS
                // sees every item of a keychain.
                query = ItemQuery(itemClass: itemClass, filters: try PasswordAttributes.coerced(attributes.search, itemClass),
                                  anySynchronizable: true)
                if let found = try file.find(query, identity: identity, limit: 1, includeSecrets: withSecret,
                                             authorize: skipping(file, index, counting: skippedCount)).first {
                    guard skippedCount.value > 0 else { return (found, index, file, 0) }
                    // A search with a limit may look at an item more than once (the engine reads
                    // again without it when it skipped some), so count the matches left out in
                    // one read of them all, without their secrets.
                    let exact = SkipCount()
                    _ = try file.find(query, identity: identity, limit: nil, includeSecrets: false,
                                      authorize: skipping(file, index, counting: exact))
                    return (found, index, file, exact.value)
                }
            } catch {
                throw PasswordFailure.engine(error, step: .search, keychain: index)
            }
            guard skippedCount.value > 0 else { continue }
            do {
                if let found = try file.find(query, identity: identity, limit: 1, includeSecrets: withSecret,
                                             authorize: authorizer(file, index, .ask)).first {
                    return (found, index, file, 0)
                }
            } catch {
                throw PasswordFailure.engine(error, step: .authentication, keychain: index)
            }
        }
        throw PasswordFailure.notFound
    }

    /// `authorizer(file, index, .skip)`, adding to `count` each item it leaves out.
    private func skipping(_ file: KeychainFile, _ index: Int, counting count: SkipCount) -> ItemAuthorizer? {
        guard let skip = authorizer(file, index, .skip) else { return nil }
        let counted: ItemAuthorizer = { accessControl throws(KeychainStoreError) -> AuthorizationOutcome in
            let outcome = try skip(accessControl)
            if case .skip = outcome { count.value += 1 }
            return outcome
        }
        return counted
    }

    /// The item as `security` prints it (``ItemListing``), each value's bytes as SecItem's values
    /// gave them: strings as UTF-8, data as is, integers as four big-endian bytes, dates in the
    /// keychain's time format, real numbers as ``realNumberBytes`` says.
    private func listing(_ item: StoredItem, item kind: PasswordCommandSyntax.Item, keychain index: Int) throws -> String {
        var unserved = false
        let text = ItemListing.render(keychainPath: keychainPath(index), item: kind) { name in
            switch item.attributes[name] {
            case .string(let string): return Array(string.utf8)
            case .data(let data): return Array(data)
            case .integer(let number): return SecurityFormat.bigEndianBytes(UInt32(truncatingIfNeeded: number))
            case .date(let seconds): return SecurityFormat.timeDateBytes(referenceSeconds: seconds)
            case .real(let number):
                guard let bytes = realNumberBytes(number) else {
                    unserved = true
                    return nil
                }
                return bytes
            case nil: return nil
            }
        }
        if unserved { throw PasswordFailure.unserved }
        return text
    }
}

/// How many items an engine call's authorizer left out (``AuthorizationOutcome/skip``).
package final class SkipCount {
    package var value = 0

    package init() {}
}
