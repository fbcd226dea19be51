import Foundation
import KeychainDBus
import KeychainSecretService

/// The `Collection`, `Item` and `Session` interfaces.
extension SecretService {
    func handleCollection(_ call: DBusMethodCall, name: String) -> DBusReply {
        guard let collection = collection(name) else { return noSuchObject(call.path) }
        let interface = SecretServiceNames.collectionInterface
        if matches(call, interface, "SearchItems") {
            guard let attributes = call.arguments[0].stringDictionary else { return .invalidArguments("expected a{ss}") }
            do {
                let found = try collection.searchIncludingLocked(attributes)
                return .values([.objectPaths((found.records.map(\.id) + found.lockedIDs).map { SecretObjectPath.itemPath(collection: name, id: $0) })])
            } catch .locked {
                return .values([.objectPaths(collection.lockedCandidates(attributes).map { SecretObjectPath.itemPath(collection: name, id: $0) })])
            } catch {
                return reply(for: error, path: call.path)
            }
        }
        if matches(call, interface, "CreateItem") {
            return createItem(call, in: name, collection)
        }
        if matches(call, interface, "Delete") {
            return .failure(SecretServiceError.notSupported,
                            "This collection is a keychain (or the session): delete keychains with 'keychainctl delete-keychain'")
        }
        return unknownMethod(call)
    }

    private func createItem(_ call: DBusMethodCall, in name: String, _ collection: any SecretCollection) -> DBusReply {
        guard let properties = call.arguments[0].propertyDictionary, let secret = call.arguments[1].secretParts,
              let replace = call.arguments[2].booleanValue else { return .invalidArguments("expected a{sv}(oayays)b") }
        let label = properties[SecretServiceNames.itemLabelProperty]?.stringValue ?? ""
        var attributes: [String: String] = [:]
        if let given = properties[SecretServiceNames.itemAttributesProperty] {
            guard let dictionary = given.stringDictionary else { return .invalidArguments("Attributes must be a{ss}") }
            attributes = dictionary
        }
        if let problem = checkAttributes(attributes, label: label) { return .invalidArguments(problem) }
        guard let session = session(secret.session, caller: call.sender) else {
            return .failure(SecretServiceError.noSession, "No session \(secret.session) for this client")
        }
        guard secret.value.count <= limits.secretBytes else { return .invalidArguments("the secret is too large") }
        let bytes: Data
        do {
            bytes = try session.decode(parameters: secret.parameters, value: secret.value)
        } catch {
            return .invalidArguments("the secret could not be decrypted with this session")
        }
        let contentType = secret.contentType.isEmpty ? "text/plain" : secret.contentType
        do {
            let (record, replaced) = try collection.create(label: label, attributes: attributes,
                                                          secret: SecretValue(bytes: bytes, contentType: contentType), replace: replace)
            let path = SecretObjectPath.itemPath(collection: name, id: record.id)
            collectionChanged(name, item: path, member: replaced ? "ItemChanged" : "ItemCreated")
            return .values([.objectPath(path), .objectPath(SecretServiceNames.noObject)])
        } catch {
            return reply(for: error, path: call.path)
        }
    }

    /// Why an attribute set or label is refused, or nil.
    func checkAttributes(_ attributes: [String: String], label: String) -> String? {
        guard attributes.count <= limits.attributesPerItem else { return "too many attributes (at most \(limits.attributesPerItem))" }
        let size = attributes.reduce(label.utf8.count) { $0 + $1.key.utf8.count + $1.value.utf8.count }
        guard size <= limits.attributeBytes else { return "the attributes and label are too large" }
        return nil
    }

    func handleItem(_ call: DBusMethodCall, collection name: String, id: String) -> DBusReply {
        guard let collection = collection(name) else { return noSuchObject(call.path) }
        let interface = SecretServiceNames.itemInterface
        let canonicalPath = SecretObjectPath.itemPath(collection: name, id: id)
        if matches(call, interface, "GetSecret") {
            guard let sessionPath = call.arguments[0].objectPathValue, let session = session(sessionPath, caller: call.sender) else {
                return .failure(SecretServiceError.noSession, "No such session for this client")
            }
            do {
                let secret = try collection.secret(id: id, grant: grant(for: call.sender, item: canonicalPath))
                let encoded = try session.encode(secret.bytes)
                return .values([.secret(session: sessionPath, parameters: encoded.parameters, value: encoded.value,
                                        contentType: secret.contentType)])
            } catch let error as SecretCollectionError {
                return reply(for: error, path: call.path)
            } catch {
                return .failure(SecretServiceError.failed, "The secret could not be encrypted for this session")
            }
        }
        if matches(call, interface, "SetSecret") {
            guard let secret = call.arguments[0].secretParts else { return .invalidArguments("expected (oayays)") }
            guard let session = session(secret.session, caller: call.sender) else {
                return .failure(SecretServiceError.noSession, "No such session for this client")
            }
            guard secret.value.count <= limits.secretBytes,
                  let bytes = try? session.decode(parameters: secret.parameters, value: secret.value) else {
                return .invalidArguments("the secret could not be decrypted with this session")
            }
            do {
                try collection.setSecret(id: id, SecretValue(bytes: bytes, contentType: secret.contentType.isEmpty ? "text/plain" : secret.contentType))
                collectionChanged(name, item: canonicalPath, member: "ItemChanged")
                return .empty
            } catch {
                return reply(for: error, path: call.path)
            }
        }
        if matches(call, interface, "Delete") {
            do {
                // An item that needs the user is locked for a client without a prompt's grant:
                // `IsLocked` here as for GetSecret, and `Unlock` on it prompts first.
                try collection.delete(id: id, grant: grant(for: call.sender, item: canonicalPath))
                collectionChanged(name, item: canonicalPath, member: "ItemDeleted")
                return .values([.objectPath(SecretServiceNames.noObject)])
            } catch {
                return reply(for: error, path: call.path)
            }
        }
        return unknownMethod(call)
    }

    func handleSession(_ call: DBusMethodCall, id: String) -> DBusReply {
        guard matches(call, SecretServiceNames.sessionInterface, "Close") else { return unknownMethod(call) }
        let closed = state.withLock { state -> Bool in
            guard state.sessions[id]?.owner == call.sender else { return false }
            state.sessions[id] = nil
            return true
        }
        return closed ? .empty : noSuchObject(call.path)
    }
}
