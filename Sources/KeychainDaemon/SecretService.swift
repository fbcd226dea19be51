import Foundation
#if canImport(Glibc)
import Glibc
#endif
package import KeychainDBus
package import KeychainSecretService
package import Logging
import KeychainStore

/// The Secret Service as D-Bus objects: one handler for every path under
/// `/org/freedesktop/secrets`, over the collections it is given (the login keychain and the
/// in-memory `session` collection).
///
/// Calls are answered on the connection's dispatch thread, one at a time; each is a few keychain
/// operations. The one thing that waits for a person, a prompt, runs on a thread of its own and
/// reports through the `Completed` signal.
package final class SecretService: Sendable {
    let connection: DBusConnection
    let logger: Logger
    let prompter: any PasswordPrompter
    let state: Locked<ServiceState>
    let limits: Limits
    /// The Unix user whose programs may call (the one keychaind runs as: whose keychain it serves).
    let servedUser = UInt32(geteuid())
    /// What decides the access groups of each client connection (``admission(of:)``).
    let callerPolicy: CallerPolicy
    /// Makes the collection `CreateCollection` asks for (a new keychain file, with the password
    /// given, if any).
    let makeCollection: @Sendable (_ name: String, _ label: String, _ password: String?) -> CollectionCreation
    /// Where the aliases clients set are kept (nil: for as long as the daemon runs).
    let aliasFile: AliasFile?
    /// What the daemon last saw of each watched collection (``noticeChangesFromOtherDoors()``).
    let sightings = Locked<[String: CollectionSighting]>([:])
    /// Asked to look again for collections when a call names one that is not served
    /// (``onMissingCollection(_:)``).
    let missingCollectionHook = Locked<(@Sendable () -> Void)?>(nil)

    /// Bounds on what one client may make the daemon hold or do.
    package struct Limits: Sendable {
        package var attributesPerItem = 256
        package var attributeBytes = 64 * 1024
        package var secretBytes = 16 * 1024 * 1024
        package var sessionsPerClient = 64
        package var promptsPerClient = 16

        package init() {}
    }

    /// - Parameters:
    ///   - collections: name and collection, in the order `Collections` lists them; must include
    ///     ``SecretServiceNames/loginCollection`` and ``SecretServiceNames/sessionCollection``.
    ///   - makeCollection: makes a new collection for `CreateCollection` (by default: refused).
    ///   - callerPolicy: the rules that give each client its access groups (docs/isolation.md).
    ///   - aliasFile: where aliases set by clients are kept across restarts (nil: in memory).
    package init(connection: DBusConnection, collections: [(String, any SecretCollection)], prompter: any PasswordPrompter,
                 logger: Logger, callerPolicy: CallerPolicy, limits: Limits = Limits(), aliasFile: AliasFile? = nil,
                 makeCollection: @escaping @Sendable (_ name: String, _ label: String, _ password: String?) -> CollectionCreation
                     = { _, _, _ in .failed }) {
        self.connection = connection
        self.callerPolicy = callerPolicy
        self.makeCollection = makeCollection
        self.prompter = prompter
        self.logger = logger
        self.limits = limits
        self.aliasFile = aliasFile
        var state = ServiceState(collections: collections)
        state.aliases = aliasFile?.load() ?? [:]
        self.state = Locked(state)
        for (name, collection) in collections { sight(collection, named: name) }
    }

    /// Writes the aliases clients set to ``aliasFile``; a failure is logged (the aliases still
    /// hold until the daemon exits).
    func saveAliases() {
        guard let aliasFile else { return }
        let aliases = state.withLock { $0.aliases }
        do {
            try aliasFile.save(aliases)
        } catch {
            logger.warning("the aliases could not be saved", metadata: ["path": "\(aliasFile.url.path)"])
        }
    }

    /// Starts answering calls under the service's root and forgetting the sessions and prompts of
    /// clients that leave the bus.
    package func register() throws {
        try connection.serve(subtree: SecretServiceNames.root) { [self] call in handle(call) }
        connection.onPeerDisconnected { [self] peer in forget(peer: peer) }
    }

    /// Answers one call. Never traps on what a client sends: a malformed call gets the spec's
    /// error, and nothing changes. Every handler works as the identity the call's connection was
    /// given (``admission(of:)``).
    package func handle(_ call: DBusMethodCall) -> DBusReply {
        let identity: ClientIdentity
        switch admission(of: call) {
        case .admitted(let admitted): identity = admitted
        case .refused(let refusal): return refusal
        }
        guard let object = SecretObjectPath(call.path) else {
            return .failure(SecretServiceError.unknownObject, "No object at \(call.path)")
        }
        // The interface table (``interfaces(at:)``) checks the signature and picks the handler.
        switch DBusRouting.method(for: call, among: Self.interfaces(at: object)) {
        case .success(let method): return method.handler(SecretCall(service: self, call: call, object: object, identity: identity))
        case .failure(let refusal): return .refusal(refusal)
        }
    }

    // MARK: Shared helpers

    /// The collection a name or alias stands for, if it exists. When none is served under it,
    /// ``onMissingCollection(_:)``'s hook is asked to look again first.
    func resolve(_ reference: SecretObjectPath.CollectionReference) -> String? {
        if let name = state.withLock({ $0.resolve(reference) }) { return name }
        guard let hook = missingCollectionHook.withLock({ $0 }) else { return nil }
        hook()
        return state.withLock { $0.resolve(reference) }
    }

    func collection(_ name: String) -> (any SecretCollection)? {
        state.withLock { $0.collections[name] }
    }

    /// How long a prompt's answer opens an item that needs the user, for the client that asked.
    static let grantLifetime: TimeInterval = 300

    /// The grant `client` holds for the item at `path` (its canonical path), if still valid.
    func grant(for client: String, item path: String) -> AccessGrant? {
        state.withLock { state in
            guard let held = state.grants[client]?[path] else { return nil }
            guard held.expires > Date() else {
                state.grants[client]?[path] = nil
                return nil
            }
            return held.grant
        }
    }

    /// The grant `client` holds for item `id` of collection `name`; its canonical path is built
    /// only when the client holds any grant (most never do, and every secret request asks).
    func grant(for client: String, collection name: String, id: String) -> AccessGrant? {
        guard state.withLock({ $0.grants[client] != nil }) else { return nil }
        return grant(for: client, item: SecretObjectPath.itemPath(collection: name, id: id))
    }

    /// Whether the item is locked for `client` (of `identity`): its collection is, or it needs
    /// the user and the client holds no grant for it. An item of groups the client lacks is
    /// not locked for it but absent, as one that does not exist.
    func itemIsLocked(_ collection: any SecretCollection, name: String, id: String, client: String, identity: ClientIdentity) -> Bool {
        if collection.isLocked { return true }
        let path = SecretObjectPath.itemPath(collection: name, id: id)
        return grant(for: client, item: path) == nil && collection.needsGrant(id: id, as: identity)
    }

    func noSuchObject(_ path: String) -> DBusReply { .refusal(Self.noSuchObjectError(path)) }

    static func noSuchObjectError(_ path: String) -> DBusError {
        DBusError(name: SecretServiceError.noSuchObject, message: "No such object: \(path)")
    }

    /// The reply for a collection's refusal. Messages never include an item's contents.
    func reply(for error: SecretCollectionError, path: String) -> DBusReply { .refusal(Self.refusal(for: error, path: path)) }

    static func refusal(for error: SecretCollectionError, path: String) -> DBusError {
        switch error {
        case .locked: DBusError(name: SecretServiceError.isLocked, message: "The collection is locked: unlock it first (\(path))")
        case .noSuchItem: noSuchObjectError(path)
        case .invalidArguments(let message): DBusError(name: SecretServiceError.invalidArgs, message: message)
        case .failed(let message): DBusError(name: SecretServiceError.failed, message: message)
        }
    }

    /// Sends a signal; a failure is logged, never passed to the caller whose call caused it.
    func emit(_ path: String, _ interface: String, _ signal: DBusSignalDeclaration, _ arguments: [DBusValue]) {
        do {
            try connection.emitSignal(path: path, interface: interface, member: signal.name, arguments: arguments)
        } catch {
            logger.warning("could not send the signal", metadata: ["signal": "\(interface).\(signal.name)"])
        }
    }

    /// Tells listeners that a collection's items changed (its `Items` and `Modified`).
    func collectionChanged(_ name: String, item: String, signal: DBusSignalDeclaration) {
        let path = SecretObjectPath.collectionPath(name)
        emit(path, SecretServiceNames.collectionInterface, signal, [.objectPath(item)])
        emit(path, SecretServiceNames.propertiesInterface, SecretServiceSignals.propertiesChanged,
             [.string(SecretServiceNames.collectionInterface), .properties([]),
              .array(elementSignature: "s", [.string(SecretServiceProperties.items), .string(SecretServiceProperties.modified)])])
    }

    private func forget(peer: String) {
        let (sessions, prompts) = state.withLock { $0.forget(peer: peer) }
        if sessions + prompts > 0 {
            logger.debug("a client left", metadata: ["sessions": "\(sessions)", "prompts": "\(prompts)"])
        }
    }
}

/// What making a collection for `CreateCollection` came to.
package enum CollectionCreation {
    case created(any SecretCollection)
    /// A keychain of that name exists (served or not): another name is tried.
    case nameTaken
    case failed
}

/// What the service holds between calls.
struct ServiceState {
    /// Collections by name, and the order `Collections` lists them in (every search walks them in
    /// that order: kept as pairs, so that it takes the list as it is rather than building one
    /// from the names on each call).
    var collections: [String: any SecretCollection] = [:]
    private(set) var collectionOrder: [(name: String, collection: any SecretCollection)] = []
    /// Aliases a client set (the built-in ones are ``SecretServiceNames/builtInAliases``).
    var aliases: [String: String] = [:]
    var sessions: [String: OpenSession] = [:]
    var prompts: [String: PendingPrompt] = [:]
    /// Items that need the user, opened for one client by a prompt: client, then item path.
    var grants: [String: [String: ItemGrant]] = [:]
    /// Every client connection that has called, by unique name, with what the bus said of it.
    var callers: [String: Caller] = [:]
    var nextSession = 1
    var nextPrompt = 1

    init(collections: [(String, any SecretCollection)]) {
        for (name, collection) in collections { self.collections[name] = collection }
        // A name given twice is listed twice, each time with the collection it ended up with.
        collectionOrder = collections.compactMap { name, _ in self.collections[name].map { (name, $0) } }
    }

    /// Adds a collection under a name not yet taken; false (and nothing changes) if it is. The
    /// login collection, served again after its file came back, is listed first as before.
    mutating func add(_ collection: any SecretCollection, named name: String) -> Bool {
        guard collections[name] == nil else { return false }
        collections[name] = collection
        if name == SecretServiceNames.loginCollection {
            collectionOrder.insert((name, collection), at: 0)
        } else {
            collectionOrder.append((name, collection))
        }
        return true
    }

    /// Removes the collection `name` with what refers to it (aliases set to it, grants for its
    /// items); the collection and whether aliases went with it, or nil if there was none.
    mutating func remove(named name: String) -> (collection: any SecretCollection, aliasesCleared: Bool)? {
        guard let removed = collections.removeValue(forKey: name) else { return nil }
        collectionOrder.removeAll { $0.name == name }
        let aliasCount = aliases.count
        aliases = aliases.filter { $0.value != name }
        let itemPrefix = SecretObjectPath.collectionPath(name) + "/"
        for client in grants.keys {
            grants[client] = grants[client]?.filter { !$0.key.hasPrefix(itemPrefix) }
        }
        return (removed, aliases.count != aliasCount)
    }

    func resolve(_ reference: SecretObjectPath.CollectionReference) -> String? {
        switch reference {
        case .name(let name):
            return collections[name] == nil ? nil : name
        case .alias(let alias):
            guard let name = aliases[alias] ?? SecretServiceNames.builtInAliases[alias], collections[name] != nil else { return nil }
            return name
        }
    }

    mutating func forget(peer: String) -> (sessions: Int, prompts: Int) {
        let sessionIDs = sessions.filter { $0.value.owner == peer }.map(\.key)
        let promptIDs = prompts.filter { $0.value.owner == peer && !$0.value.running }.map(\.key)
        for id in sessionIDs { sessions[id] = nil }
        for id in promptIDs { prompts[id] = nil }
        grants[peer] = nil
        callers[peer] = nil
        return (sessionIDs.count, promptIDs.count)
    }
}

/// A client's permission to read one item that needs the user, until it expires.
struct ItemGrant {
    let grant: AccessGrant
    let expires: Date
}

/// A session a client opened: its cipher, and who may use it.
struct OpenSession {
    let owner: String
    let cipher: SecretSession
}
