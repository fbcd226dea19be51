import Foundation
import KeychainDBus
import KeychainSecretService

/// A prompt waiting for its client to call `Prompt` (or `Dismiss`).
struct PendingPrompt {
    enum Action {
        /// Unlock these collections, open these items (canonical paths) that need the user for
        /// the prompt's owner, then report which of these objects are unlocked.
        case unlock(collections: [String], items: [String], objects: [String])
        /// Ask for a new collection's password (none when left empty), then make it.
        case createCollection(label: String, alias: String)
        /// Ask whether the collection may be deleted, then delete it.
        case deleteCollection(String)
    }

    let owner: String
    let action: Action
    /// Set once `Prompt` was called: the prompter is asking, so the prompt cannot start twice.
    var running = false
}

/// The `org.freedesktop.Secret.Prompt` objects: how a locked keychain is opened over D-Bus.
extension SecretService {
    /// How many wrong passwords one prompt accepts before it gives up.
    static let promptTries = 3

    /// Makes a prompt owned by `owner`; nil when that client already has too many.
    func newPrompt(owner: String, action: PendingPrompt.Action) -> String? {
        state.withLock { state in
            guard state.prompts.values.filter({ $0.owner == owner }).count < limits.promptsPerClient else { return nil }
            let id = "p\(state.nextPrompt)"
            state.nextPrompt += 1
            state.prompts[id] = PendingPrompt(owner: owner, action: action)
            return SecretServiceNames.promptPrefix + id
        }
    }

    static let promptTable = DBusInterface<SecretCall, Void>(
        SecretServiceNames.promptInterface,
        methods: [
            DBusMethod("Prompt", in: [DBusArgument("window-id", "s")]) { call in call.service.startPrompt(call) },
            DBusMethod("Dismiss") { call in call.service.dismissPrompt(call) },
        ],
        signals: [SecretServiceSignals.completed])

    private func startPrompt(_ call: SecretCall) -> DBusReply {
        let path = call.path, sender = call.sender
        guard case .prompt(let id) = call.object else { return noSuchObject(path) }
        let action: PendingPrompt.Action? = state.withLock { state in
            guard var prompt = state.prompts[id], prompt.owner == sender, !prompt.running else { return nil }
            prompt.running = true
            state.prompts[id] = prompt
            return prompt.action
        }
        guard let action else { return noSuchObject(path) }
        // A prompt that cannot be shown at all is refused now, with the reason, while the
        // client still waits for this answer: afterwards only `Completed` could reach it, and
        // that carries no reason.
        if let reason = prompter.unavailableReason, needsPrompter(action) {
            state.withLock { _ = $0.prompts.removeValue(forKey: id) }
            logger.warning("no prompt could be shown", metadata: ["reason": "\(reason)"])
            return .refusal(DBusError(name: SecretServiceError.failed, message: "No prompt can be shown: \(reason)"))
        }
        // Named now, while the client waits on its connection for this answer.
        let program = programName(of: sender)
        // The prompter may wait for a person for minutes: never on the dispatch thread.
        Thread.detachNewThread { [self] in
            let (dismissed, result) = run(action, owner: sender, program: program)
            state.withLock { _ = $0.prompts.removeValue(forKey: id) }
            emit(path, SecretServiceNames.promptInterface, SecretServiceSignals.completed, [.boolean(dismissed), .variant(result)])
        }
        return .empty
    }

    private func dismissPrompt(_ call: SecretCall) -> DBusReply {
        guard case .prompt(let id) = call.object else { return noSuchObject(call.path) }
        let removed = state.withLock { state -> Bool in
            guard let prompt = state.prompts[id], prompt.owner == call.sender, !prompt.running else { return false }
            state.prompts[id] = nil
            return true
        }
        guard removed else { return noSuchObject(call.path) }
        emit(call.path, SecretServiceNames.promptInterface, SecretServiceSignals.completed, [.boolean(true), .variant(.objectPaths([]))])
        return .empty
    }

    /// Whether carrying out `action` still needs the prompter (a collection is still locked, or
    /// an item needs the user).
    private func needsPrompter(_ action: PendingPrompt.Action) -> Bool {
        switch action {
        case .unlock(let names, let items, _):
            return !items.isEmpty || names.contains { collection($0)?.isLocked == true }
        case .createCollection, .deleteCollection:
            return true
        }
    }

    /// Carries out a prompt's action for `owner`, whose program the prompts name as `program`
    /// (``CallerProgram/describe(processID:)``): whether it was dismissed, and the result the
    /// spec wants.
    private func run(_ action: PendingPrompt.Action, owner: String, program: String) -> (Bool, DBusValue) {
        switch action {
        case .unlock(let names, let items, let objects):
            for name in names {
                guard let collection = collection(name), collection.isLocked else { continue }
                guard unlockWithPrompter(collection, label: collection.label, program: program) else {
                    logger.info("an unlock prompt was dismissed", metadata: ["collection": "\(name)"])
                    return (true, .objectPaths([]))
                }
                emitLockedChanged(name)
            }
            for path in items {
                guard let name = owningCollection(path), let collection = collection(name) else { continue }
                guard let grant = grantWithPrompter(collection, label: collection.label, program: program) else {
                    logger.info("a prompt for a protected item was dismissed", metadata: ["collection": "\(name)"])
                    return (true, .objectPaths([]))
                }
                state.withLock { $0.grants[owner, default: [:]][path] = ItemGrant(grant: grant, expires: Date() + Self.grantLifetime) }
            }
            let unlocked = objects.filter { path in
                guard let name = owningCollection(path), let collection = collection(name) else { return false }
                if case .item(_, let id)? = SecretObjectPath(path) {
                    // A client that has left has no identity any more: nothing is open for it.
                    guard let identity = identity(of: owner) else { return false }
                    return !itemIsLocked(collection, name: name, id: id, client: owner, identity: identity)
                }
                return !collection.isLocked
            }
            return (false, .objectPaths(unlocked))
        case .createCollection(let label, let alias):
            let shown = label.isEmpty ? alias : label
            guard let password = askForNewPassword(label: shown, program: program) else {
                logger.info("a prompt to create a collection was dismissed")
                return (true, .objectPath(SecretServiceNames.noObject))
            }
            guard let path = createCollection(label: label, alias: alias, password: password.isEmpty ? nil : password) else {
                logger.error("no keychain could be made for a new collection")
                return (true, .objectPath(SecretServiceNames.noObject))
            }
            return (false, .objectPath(path))
        case .deleteCollection(let name):
            guard let collection = collection(name) else { return (true, .objectPath(SecretServiceNames.noObject)) }
            let request = PasswordRequest(
                description: "\(program) wants to delete the keychain \u{201C}\(collection.label)\u{201D} and every item in it. This cannot be undone.",
                confirmation: "Delete", refusal: "Keep")
            guard case .confirmed = ask(request) else {
                logger.info("a prompt to delete a collection was dismissed", metadata: ["collection": "\(name)"])
                return (true, .objectPath(SecretServiceNames.noObject))
            }
            do {
                try collection.deleteAll()
            } catch {
                logger.error("a collection could not be deleted", metadata: ["collection": "\(name)"])
                return (true, .objectPath(SecretServiceNames.noObject))
            }
            withdraw(named: name)
            logger.info("deleted a collection", metadata: ["collection": "\(name)"])
            return (false, .objectPath(SecretServiceNames.noObject))
        }
    }

    /// Asks for a new keychain's password, twice, until both agree; an empty first answer means
    /// no password. Nil when the person cancels, no prompt can be shown, or the tries run out.
    private func askForNewPassword(label: String, program: String) -> String? {
        var error: String?
        for _ in 0..<Self.promptTries {
            let first = ask(PasswordRequest(
                description: "\(program) wants to create the keychain \u{201C}\(label)\u{201D}. Choose its password, or leave it empty for none.",
                error: error))
            guard case .password(let password) = first else { return nil }
            if password.isEmpty { return "" }
            guard case .password(let again) = ask(PasswordRequest(description: "Type the password of the keychain \u{201C}\(label)\u{201D} again.")) else {
                return nil
            }
            if again == password { return password }
            error = "The two passwords were not the same. Try again."
        }
        return nil
    }

    /// One question to the person; a prompt that cannot be shown is logged with its reason.
    private func ask(_ request: PasswordRequest) -> PasswordAnswer {
        let answer = prompter.askPassword(request)
        if case .unavailable(let reason) = answer {
            logger.warning("no prompt could be shown", metadata: ["reason": "\(reason)"])
        }
        return answer
    }

    /// Asks for the keychain password, as for an unlock, to open an item that needs the user
    /// (to read it, change it or delete it).
    private func grantWithPrompter(_ collection: any SecretCollection, label: String, program: String) -> AccessGrant? {
        askForPassword("\(program) wants to use an item of the keychain \u{201C}\(label)\u{201D} that requires your password each time. Enter the keychain's password to allow it.") { password in
            try? collection.grant(password: password)
        }
    }

    /// Asks for the keychain password until it opens the collection, the person gives up, or
    /// the tries run out. True when the collection ended up unlocked.
    private func unlockWithPrompter(_ collection: any SecretCollection, label: String, program: String) -> Bool {
        askForPassword("\(program) wants to use the keychain \u{201C}\(label)\u{201D}, which is locked. Enter its password to unlock it.") { password in
            (try? collection.unlock(password: password)) != nil && !collection.isLocked ? true : nil
        } ?? false
    }

    /// Prompts up to ``promptTries`` times, until `attempt` accepts a password (returns non-nil);
    /// nil when the person cancels, no prompt can be shown, or the tries run out.
    private func askForPassword<T>(_ description: String, attempt: (String) -> T?) -> T? {
        var error: String?
        for _ in 0..<Self.promptTries {
            guard case .password(let password) = ask(PasswordRequest(description: description, error: error)) else { return nil }
            if let accepted = attempt(password) { return accepted }
            logger.notice("a wrong keychain password was typed at a prompt")
            error = "That is not the keychain's password. Try again."
        }
        return nil
    }
}
