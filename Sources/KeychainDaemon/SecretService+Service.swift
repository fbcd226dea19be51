import Foundation
import KeychainDBus
import KeychainSecretService
import KeychainStore

/// The `org.freedesktop.Secret.Service` interface at `/org/freedesktop/secrets`: its table, then
/// what answers its methods.
extension SecretService {
    static let serviceTable = DBusInterface<SecretCall, [String]>(
        SecretServiceNames.serviceInterface,
        methods: [
            DBusMethod("OpenSession", in: [DBusArgument("algorithm", "s"), DBusArgument("input", "v")],
                       out: [DBusArgument("output", "v"), DBusArgument("result", "o")]) { call in
                call.service.openSession(call.call, algorithm: call.arguments[0].stringValue ?? "", input: call.arguments[1].unwrapped)
            },
            DBusMethod("CreateCollection", in: [DBusArgument("properties", "a{sv}"), DBusArgument("alias", "s")],
                       out: [DBusArgument("collection", "o"), DBusArgument("prompt", "o")]) { call in
                guard let properties = call.arguments[0].propertyDictionary else { return .invalidArguments("expected a{sv}") }
                return call.service.createCollection(properties, alias: call.arguments[1].stringValue ?? "", caller: call.sender)
            },
            DBusMethod("SearchItems", in: [DBusArgument("attributes", "a{ss}")],
                       out: [DBusArgument("unlocked", "ao"), DBusArgument("locked", "ao")]) { call in
                guard let attributes = call.arguments[0].stringDictionary else { return .invalidArguments("expected a{ss}") }
                return call.service.searchAllCollections(attributes, as: call.identity)
            },
            DBusMethod("Unlock", in: [DBusArgument("objects", "ao")], out: [DBusArgument("unlocked", "ao"), DBusArgument("prompt", "o")]) { call in
                guard let objects = call.arguments[0].objectPathList else { return .invalidArguments("expected ao") }
                return call.service.unlock(objects, caller: call.sender, identity: call.identity)
            },
            DBusMethod("Lock", in: [DBusArgument("objects", "ao")], out: [DBusArgument("locked", "ao"), DBusArgument("Prompt", "o")]) { call in
                guard let objects = call.arguments[0].objectPathList else { return .invalidArguments("expected ao") }
                return call.service.lock(objects)
            },
            DBusMethod("GetSecrets", in: [DBusArgument("items", "ao"), DBusArgument("session", "o")],
                       out: [DBusArgument("secrets", "a{o" + SecretServiceNames.secretType + "}")]) { call in
                guard let items = call.arguments[0].objectPathList, let session = call.arguments[1].objectPathValue else {
                    return .invalidArguments("expected ao and o")
                }
                return call.service.getSecrets(items, session: session, caller: call.sender, identity: call.identity)
            },
            DBusMethod("ReadAlias", in: [DBusArgument("name", "s")], out: [DBusArgument("collection", "o")]) { call in
                let name = call.service.resolve(.alias(call.arguments[0].stringValue ?? ""))
                return .values([.objectPath(name.map(SecretObjectPath.collectionPath) ?? SecretServiceNames.noObject)])
            },
            DBusMethod("SetAlias", in: [DBusArgument("name", "s"), DBusArgument("collection", "o")]) { call in
                call.service.setAlias(call.arguments[0].stringValue ?? "", to: call.arguments[1].objectPathValue ?? "")
            },
        ],
        properties: [
            DBusProperty(SecretServiceProperties.collections, "ao") { names in .objectPaths(names.map(SecretObjectPath.collectionPath)) },
        ],
        signals: [SecretServiceSignals.collectionCreated, SecretServiceSignals.collectionDeleted, SecretServiceSignals.collectionChanged],
        loadProperties: { call in .success(call.service.state.withLock { $0.collectionOrder.map(\.name) }) })

    private func openSession(_ call: DBusMethodCall, algorithm name: String, input: DBusValue) -> DBusReply {
        guard let algorithm = SessionAlgorithm(name: name) else {
            return .failure(SecretServiceError.notSupported, "The algorithm '\(name)' is not supported")
        }
        let clientInput: Data
        switch (algorithm, input) {
        case (.plain, .string): clientInput = Data()
        case (.plain, _): return .invalidArguments("the plain algorithm takes an empty string")
        case (_, .bytes(let bytes)): clientInput = bytes
        default: return .invalidArguments("this algorithm takes the client's public key as bytes (ay)")
        }
        let negotiated: (session: SecretSession, output: Data)
        do {
            negotiated = try SecretSession.negotiate(algorithm, clientInput: clientInput)
        } catch {
            return .invalidArguments("the client's public key is not acceptable")
        }
        let id: String? = state.withLock { state in
            guard state.sessions.values.filter({ $0.owner == call.sender }).count < limits.sessionsPerClient else { return nil }
            let id = String(state.nextSession)
            state.nextSession += 1
            state.sessions[id] = OpenSession(owner: call.sender, cipher: negotiated.session)
            return id
        }
        guard let id else {
            return .failure(SecretServiceError.failed, "Too many open sessions for this client: close some first")
        }
        let output: DBusValue = algorithm == .plain ? .string("") : .bytes(negotiated.output)
        return .values([.variant(output), .objectPath(SecretServiceNames.sessionPrefix + id)])
    }

    /// The session at `path` if `caller` opened it.
    func session(_ path: String, caller: String) -> SecretSession? {
        guard case .session(let id)? = SecretObjectPath(path) else { return nil }
        return state.withLock { state in
            guard let session = state.sessions[id], session.owner == caller else { return nil }
            return session.cipher
        }
    }

    private func searchAllCollections(_ attributes: [String: String], as identity: ClientIdentity) -> DBusReply {
        var unlocked: [String] = []
        var locked: [String] = []
        let collections = state.withLock { $0.collectionOrder }
        for (name, collection) in collections {
            do {
                // Items that need the user cannot be read without a prompt; the indexes still
                // find them, and they are listed as locked so that the client asks to unlock them.
                let found = try collection.searchIncludingLocked(attributes, as: identity)
                unlocked += found.records.map { SecretObjectPath.itemPath(collection: name, id: $0.id) }
                locked += found.lockedIDs.map { SecretObjectPath.itemPath(collection: name, id: $0) }
            } catch .locked {
                // The attributes cannot be read; the indexes still say which items to unlock.
                locked += collection.lockedCandidates(attributes, as: identity).map { SecretObjectPath.itemPath(collection: name, id: $0) }
            } catch {
                return reply(for: error, path: SecretObjectPath.collectionPath(name))
            }
        }
        // A found password's secret, kept sealed by the search, is opened while the client
        // reads this answer and asks for it; the request for it is then expected at once.
        connection.afterReplies { [connection] in
            var secretWaits = false
            for (_, collection) in collections {
                if collection.openKeptSecret() { secretWaits = true }
            }
            if secretWaits { connection.expectFollowUp() }
        }
        return .objectPathLists(unlocked, locked)
    }

    private func getSecrets(_ items: [String], session sessionPath: String, caller: String, identity: ClientIdentity) -> DBusReply {
        guard let session = session(sessionPath, caller: caller) else {
            return .failure(SecretServiceError.noSession, "No session \(sessionPath) for this client")
        }
        var entries: [DBusPathSecret] = []
        for path in items {
            guard case .item(let reference, let id)? = SecretObjectPath(path), let name = resolve(reference),
                  let collection = collection(name) else { continue }
            // Items that are locked or gone are left out, as the spec says; so are those of
            // groups the caller lacks, which do not exist for it.
            guard let secret = try? collection.secret(id: id, grant: grant(for: caller, collection: name, id: id), as: identity),
                  let encoded = try? session.encode(secret.bytes) else { continue }
            entries.append(DBusPathSecret(path: path, session: sessionPath, parameters: encoded.parameters,
                                          value: encoded.value, contentType: secret.contentType))
        }
        return .secretsByPath(entries)
    }

    /// The collection an object (a collection or an item) belongs to.
    func owningCollection(_ path: String) -> String? {
        switch SecretObjectPath(path) {
        case .collection(let reference)?, .item(let reference, _)?: return resolve(reference)
        default: return nil
        }
    }

    private func unlock(_ objects: [String], caller: String, identity: ClientIdentity) -> DBusReply {
        var unlocked: [String] = []
        var waiting: [String] = []
        var lockedCollections: [String] = []
        var protectedItems: [String] = []
        for path in objects {
            guard let name = owningCollection(path), let collection = collection(name) else { continue }
            if collection.isLocked, collection.unlockWithoutPassword() {
                // Locked for D-Bus clients alone (it has no password): nothing to ask.
                emitLockedChanged(name)
                unlocked.append(path)
            } else if collection.isLocked {
                waiting.append(path)
                if !lockedCollections.contains(name) { lockedCollections.append(name) }
            } else if case .item(_, let id)? = SecretObjectPath(path), itemIsLocked(collection, name: name, id: id, client: caller, identity: identity) {
                waiting.append(path)
                protectedItems.append(SecretObjectPath.itemPath(collection: name, id: id))
            } else {
                unlocked.append(path)
            }
        }
        guard !waiting.isEmpty else { return .values([.objectPaths(unlocked), .objectPath(SecretServiceNames.noObject)]) }
        let action = PendingPrompt.Action.unlock(collections: lockedCollections, items: protectedItems, objects: waiting)
        guard let prompt = newPrompt(owner: caller, action: action) else {
            return .failure(SecretServiceError.failed, "Too many prompts are waiting for this client")
        }
        return .values([.objectPaths(unlocked), .objectPath(prompt)])
    }

    private func lock(_ objects: [String]) -> DBusReply {
        var locked: [String] = []
        for path in objects {
            guard let name = owningCollection(path), let collection = collection(name) else { continue }
            do {
                try collection.lock()
                if collection.isLocked {
                    locked.append(path)
                    emitLockedChanged(name)
                }
            } catch {
                return reply(for: error, path: path)
            }
        }
        return .values([.objectPaths(locked), .objectPath(SecretServiceNames.noObject)])
    }

    /// Tells listeners the collection's lock state: `locked` when the caller knows it (a
    /// watcher, whose look must not count as a use of the keychain), else read now.
    func emitLockedChanged(_ name: String, locked known: Bool? = nil) {
        guard let collection = collection(name) else { return }
        let locked = known ?? collection.isLocked
        noteLockState(name, locked)
        emit(SecretObjectPath.collectionPath(name), SecretServiceNames.propertiesInterface, SecretServiceSignals.propertiesChanged,
             [.string(SecretServiceNames.collectionInterface), .properties([(SecretServiceProperties.locked, .boolean(locked))]),
              .array(elementSignature: "s", [])])
        emit(SecretServiceNames.root, SecretServiceNames.serviceInterface, SecretServiceSignals.collectionChanged,
             [.objectPath(SecretObjectPath.collectionPath(name))])
    }

    private func setAlias(_ alias: String, to path: String) -> DBusReply {
        guard !alias.isEmpty, alias.utf8.allSatisfy(SecretObjectPath.isPathElementByte) else {
            return .invalidArguments("an alias is made of letters, digits and underscores")
        }
        guard !SecretServiceNames.fixedAliases.contains(alias) else {
            return .failure(SecretServiceError.notSupported, "The alias '\(alias)' is fixed to the login keychain or the session")
        }
        if path == SecretServiceNames.noObject {
            state.withLock { $0.aliases[alias] = nil }
            saveAliases()
            return .empty
        }
        guard case .collection(let reference)? = SecretObjectPath(path), let name = resolve(reference) else {
            return noSuchObject(path)
        }
        state.withLock { $0.aliases[alias] = name }
        saveAliases()
        return .empty
    }

    /// A new collection is a new keychain file in the keychains folder, named after the label
    /// (letters, digits and `_`; `_2`, `_3`, … when that name is taken), made once the person
    /// has chosen its password at the prompt this returns (or none, by leaving it empty). An
    /// alias that names a collection returns that collection at once, as the spec wants. A
    /// built-in alias whose collection is not served (`default` while the login keychain's file
    /// is missing, as libsecret asks before storing) makes the login keychain at once, without a
    /// password, as any program that stores an item would.
    private func createCollection(_ properties: [String: DBusValue], alias: String, caller: String) -> DBusReply {
        let noPrompt = DBusValue.objectPath(SecretServiceNames.noObject)
        if !alias.isEmpty, let name = resolve(.alias(alias)) {
            return .values([.objectPath(SecretObjectPath.collectionPath(name)), noPrompt])
        }
        if SecretServiceNames.builtInAliases[alias] == SecretServiceNames.loginCollection {
            return makeLoginCollection()
        }
        let label = properties[SecretServiceNames.collectionLabelProperty]?.stringValue ?? ""
        if let problem = checkAttributes([:], label: label) { return .invalidArguments(problem) }
        guard !Self.collectionName(label: label, alias: alias).isEmpty else {
            return .invalidArguments("a new collection needs a Label or an alias")
        }
        guard alias.utf8.allSatisfy(SecretObjectPath.isPathElementByte) else {
            return .invalidArguments("an alias is made of letters, digits and underscores")
        }
        guard let prompt = newPrompt(owner: caller, action: .createCollection(label: label, alias: alias)) else {
            return .failure(SecretServiceError.failed, "Too many prompts are waiting for this client")
        }
        return .values([noPrompt, .objectPath(prompt)])
    }

    private func makeLoginCollection() -> DBusReply {
        let name = SecretServiceNames.loginCollection
        if resolve(.name(name)) == nil {
            guard case .created(let collection) = makeCollection(name, SecretServiceNames.loginLabel, nil) else {
                return .failure(SecretServiceError.failed, "The login keychain could not be created")
            }
            if serve(collection, named: name) { logger.info("created a collection", metadata: ["collection": "\(name)"]) }
        }
        return .values([.objectPath(SecretObjectPath.collectionPath(name)), .objectPath(SecretServiceNames.noObject)])
    }

    /// Makes and serves the collection a `CreateCollection` prompt was answered for: under the
    /// first free name derived from its label, with the password chosen (nil: none). Its path,
    /// or nil when no keychain could be made.
    func createCollection(label: String, alias: String, password: String?) -> String? {
        let base = Self.collectionName(label: label, alias: alias)
        for number in 1...Self.collectionNameTries {
            let name = number == 1 ? base : "\(base)_\(number)"
            guard !SecretServiceNames.reservedCollectionNames.contains(name), resolve(.name(name)) == nil else { continue }
            switch makeCollection(name, label.isEmpty ? name : label, password) {
            case .nameTaken:
                continue
            case .failed:
                return nil
            case .created(let collection):
                if !label.isEmpty { try? collection.setLabel(label) }
                // The folder's watch may have served the new file already, under this name.
                guard serve(collection, named: name) || self.collection(name) != nil else { return nil }
                logger.info("created a collection", metadata: ["collection": "\(name)"])
                if !alias.isEmpty {
                    state.withLock { $0.aliases[alias] = name }
                    saveAliases()
                }
                return SecretObjectPath.collectionPath(name)
            }
        }
        return nil
    }

    /// How many names `CreateCollection` tries before it gives up (`work`, `work_2`, …).
    static let collectionNameTries = 100

    /// A collection's name: its label (else its alias) lowercased, with every character that
    /// cannot stand in an object path turned into `_`, at most 64 of them.
    package static func collectionName(label: String, alias: String) -> String {
        let source = label.isEmpty ? alias : label
        let bytes = source.lowercased().utf8.prefix(64).map { SecretObjectPath.isPathElementByte($0) ? $0 : UInt8(ascii: "_") }
        return String(decoding: bytes, as: UTF8.self)
    }
}
