import Foundation
import KeychainDBus
import KeychainSecretService

/// The `Item` and `Session` interfaces: their tables, then what answers their methods.
extension SecretService {
    static let itemTable = DBusInterface<SecretCall, ItemProperties>(
        SecretServiceNames.itemInterface,
        methods: [
            DBusMethod("Delete", out: [DBusArgument("Prompt", "o")]) { call in
                call.onItem { name, collection, id in call.service.deleteItem(id, in: name, collection, call) }
            },
            DBusMethod("GetSecret", in: [DBusArgument("session", "o")], out: [DBusArgument("secret", SecretServiceNames.secretType)]) { call in
                call.onItem { name, collection, id in call.service.getSecret(id, in: name, collection, call) }
            },
            DBusMethod("SetSecret", in: [DBusArgument("secret", SecretServiceNames.secretType)]) { call in
                call.onItem { name, collection, id in call.service.setSecret(id, in: name, collection, call) }
            },
        ],
        properties: [
            DBusProperty(SecretServiceProperties.locked, "b") { .boolean($0.locked) },
            DBusProperty(SecretServiceProperties.attributes, "a{ss}", read: { .stringDictionary($0.record.attributes) }) { call, name, value in
                guard let attributes = value.stringDictionary else { return .invalidArguments("Attributes is a{ss}") }
                if let problem = call.service.checkAttributes(attributes, label: "") { return .invalidArguments(problem) }
                return call.service.setItemProperty(call, name) { (collection, id) throws(SecretCollectionError) in try collection.setAttributes(id: id, attributes, as: call.identity) }
            },
            DBusProperty(SecretServiceProperties.label, "s", read: { .string($0.record.label) }) { call, name, value in
                guard let label = value.stringValue else { return .invalidArguments("Label is a string") }
                if let problem = call.service.checkAttributes([:], label: label) { return .invalidArguments(problem) }
                return call.service.setItemProperty(call, name) { (collection, id) throws(SecretCollectionError) in try collection.setLabel(id: id, label, as: call.identity) }
            },
            DBusProperty(SecretServiceProperties.created, "t") { .uint64($0.record.created) },
            DBusProperty(SecretServiceProperties.modified, "t") { .uint64($0.record.modified) },
        ],
        loadProperties: { call in call.service.itemProperties(call) })

    static let sessionTable = DBusInterface<SecretCall, Void>(SecretServiceNames.sessionInterface, methods: [
        DBusMethod("Close") { call in
            guard case .session(let id) = call.object else { return call.service.noSuchObject(call.path) }
            let closed = call.service.state.withLock { state -> Bool in
                guard state.sessions[id]?.owner == call.sender else { return false }
                state.sessions[id] = nil
                return true
            }
            return closed ? .empty : call.service.noSuchObject(call.path)
        },
    ])

    /// What an item's properties are read from. An item that needs the user, until a prompt
    /// opens it for this client, shows nothing of itself but that it is locked.
    struct ItemProperties {
        let locked: Bool
        let record: SecretItemRecord
    }

    private func itemProperties(_ call: SecretCall) -> Result<ItemProperties, DBusError> {
        guard case .item(_, let id) = call.object, case .success(let (name, collection)) = call.resolvedCollection() else {
            return .failure(Self.noSuchObjectError(call.path))
        }
        let canonical = SecretObjectPath.itemPath(collection: name, id: id)
        do {
            let record = try collection.item(id: id, grant: grant(for: call.sender, item: canonical), as: call.identity)
            return .success(ItemProperties(locked: collection.isLocked, record: record))
        } catch .locked {
            // Locked by itself (it needs the user) or with its collection: nothing but that shows.
            return .success(ItemProperties(locked: true, record: SecretItemRecord(id: id, label: "", attributes: [:], created: 0, modified: 0)))
        } catch {
            return .failure(Self.refusal(for: error, path: call.path))
        }
    }

    /// Changes one property of the item `call` is addressed to with `change`, and tells listeners.
    private func setItemProperty(_ call: SecretCall, _ name: String,
                                 _ change: (any SecretCollection, String) throws(SecretCollectionError) -> Void) -> DBusReply {
        guard case .item(_, let id) = call.object, case .success(let (collectionName, collection)) = call.resolvedCollection() else {
            return noSuchObject(call.path)
        }
        return signallingOwnChange(in: collectionName, collection) {
            do throws(SecretCollectionError) {
                try change(collection, id)
            } catch {
                return (reply(for: error, path: call.path), [])
            }
            let itemPath = SecretObjectPath.itemPath(collection: collectionName, id: id)
            emit(itemPath, SecretServiceNames.propertiesInterface, SecretServiceSignals.propertiesChanged,
                 [.string(SecretServiceNames.itemInterface), .properties([]),
                  .array(elementSignature: "s", [.string(name), .string(SecretServiceProperties.modified)])])
            collectionChanged(collectionName, item: itemPath, signal: SecretServiceSignals.itemChanged)
            return (.empty, [id])
        }
    }

    private func getSecret(_ id: String, in name: String, _ collection: any SecretCollection, _ call: SecretCall) -> DBusReply {
        guard let sessionPath = call.arguments[0].objectPathValue, let session = session(sessionPath, caller: call.sender) else {
            return .failure(SecretServiceError.noSession, "No such session for this client")
        }
        do {
            let secret = try collection.secret(id: id, grant: grant(for: call.sender, item: SecretObjectPath.itemPath(collection: name, id: id)),
                                               as: call.identity)
            let encoded = try session.encode(secret.bytes)
            return .values([.secret(session: sessionPath, parameters: encoded.parameters, value: encoded.value,
                                    contentType: secret.contentType)])
        } catch let error as SecretCollectionError {
            return reply(for: error, path: call.path)
        } catch {
            return .failure(SecretServiceError.failed, "The secret could not be encrypted for this session")
        }
    }

    private func setSecret(_ id: String, in name: String, _ collection: any SecretCollection, _ call: SecretCall) -> DBusReply {
        guard let secret = call.arguments[0].secretParts else { return .invalidArguments("expected \(SecretServiceNames.secretType)") }
        guard let session = session(secret.session, caller: call.sender) else {
            return .failure(SecretServiceError.noSession, "No such session for this client")
        }
        guard secret.value.count <= limits.secretBytes,
              let bytes = try? session.decode(parameters: secret.parameters, value: secret.value) else {
            return .invalidArguments("the secret could not be decrypted with this session")
        }
        return signallingOwnChange(in: name, collection) {
            do throws(SecretCollectionError) {
                try collection.setSecret(id: id, SecretValue(bytes: bytes, contentType: secret.contentType.isEmpty ? "text/plain" : secret.contentType),
                                         as: call.identity)
                collectionChanged(name, item: SecretObjectPath.itemPath(collection: name, id: id), signal: SecretServiceSignals.itemChanged)
                return (.empty, [id])
            } catch {
                return (reply(for: error, path: call.path), [])
            }
        }
    }

    private func deleteItem(_ id: String, in name: String, _ collection: any SecretCollection, _ call: SecretCall) -> DBusReply {
        let canonicalPath = SecretObjectPath.itemPath(collection: name, id: id)
        return signallingOwnChange(in: name, collection) {
            do throws(SecretCollectionError) {
                // An item that needs the user is locked for a client without a prompt's grant:
                // `IsLocked` here as for GetSecret, and `Unlock` on it prompts first.
                try collection.delete(id: id, grant: grant(for: call.sender, item: canonicalPath), as: call.identity)
                collectionChanged(name, item: canonicalPath, signal: SecretServiceSignals.itemDeleted)
                return (.values([.objectPath(SecretServiceNames.noObject)]), [id])
            } catch {
                return (reply(for: error, path: call.path), [])
            }
        }
    }
}
