import Foundation
import KeychainDBus
import KeychainSecretService

/// The `org.freedesktop.Secret.Collection` interface: its table, then what answers its methods.
extension SecretService {
    static let collectionTable = DBusInterface<SecretCall, CollectionProperties>(
        SecretServiceNames.collectionInterface,
        methods: [
            DBusMethod("Delete", out: [DBusArgument("prompt", "o")]) { call in
                call.inCollection { name, _ in call.service.deleteCollection(name, caller: call.sender) }
            },
            DBusMethod("SearchItems", in: [DBusArgument("attributes", "a{ss}")], out: [DBusArgument("results", "ao")]) { call in
                guard let attributes = call.arguments[0].stringDictionary else { return .invalidArguments("expected a{ss}") }
                return call.inCollection { name, collection in call.service.searchItems(attributes, in: name, collection, call) }
            },
            DBusMethod("CreateItem", in: [DBusArgument("properties", "a{sv}"), DBusArgument("secret", SecretServiceNames.secretType),
                                          DBusArgument("replace", "b")],
                       out: [DBusArgument("item", "o"), DBusArgument("prompt", "o")]) { call in
                call.inCollection { name, collection in call.service.createItem(call, in: name, collection) }
            },
        ],
        properties: [
            DBusProperty(SecretServiceProperties.items, "ao") { .objectPaths($0.items) },
            DBusProperty(SecretServiceProperties.label, "s", read: { .string($0.collection.label) }) { call, _, value in
                guard let label = value.stringValue else { return .invalidArguments("Label is a string") }
                return call.inCollection { name, collection in call.service.setCollectionLabel(label, of: name, collection) }
            },
            DBusProperty(SecretServiceProperties.locked, "b") { .boolean($0.collection.isLocked) },
            DBusProperty(SecretServiceProperties.created, "t") { .uint64($0.collection.created) },
            DBusProperty(SecretServiceProperties.modified, "t") { .uint64($0.collection.modified) },
        ],
        signals: [SecretServiceSignals.itemCreated, SecretServiceSignals.itemDeleted, SecretServiceSignals.itemChanged],
        loadProperties: { call in
            call.resolvedCollection().flatMap { name, collection in collectionProperties(name, collection, call) }
        })

    /// What a collection's properties are read from: the collection and the paths of its items
    /// the caller may see (none while it is locked).
    struct CollectionProperties {
        let collection: any SecretCollection
        let items: [String]
    }

    private static func collectionProperties(_ name: String, _ collection: any SecretCollection, _ call: SecretCall)
        -> Result<CollectionProperties, DBusError> {
        do {
            let items = try collection.allItems(as: call.identity).map { SecretObjectPath.itemPath(collection: name, id: $0.id) }
            return .success(CollectionProperties(collection: collection, items: items))
        } catch .locked {
            return .success(CollectionProperties(collection: collection, items: []))
        } catch {
            return .failure(refusal(for: error, path: call.path))
        }
    }

    private func searchItems(_ attributes: [String: String], in name: String, _ collection: any SecretCollection, _ call: SecretCall) -> DBusReply {
        do {
            let found = try collection.searchIncludingLocked(attributes, as: call.identity)
            return .values([.objectPaths((found.records.map(\.id) + found.lockedIDs).map { SecretObjectPath.itemPath(collection: name, id: $0) })])
        } catch .locked {
            return .values([.objectPaths(collection.lockedCandidates(attributes, as: call.identity)
                .map { SecretObjectPath.itemPath(collection: name, id: $0) })])
        } catch {
            return reply(for: error, path: call.path)
        }
    }

    /// Into the caller's first access group (its default, as for `SecItemAdd` without one).
    private func createItem(_ call: SecretCall, in name: String, _ collection: any SecretCollection) -> DBusReply {
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
        return signallingOwnChange(in: name, collection) {
            do throws(SecretCollectionError) {
                let (record, replaced) = try collection.create(label: label, attributes: attributes,
                                                              secret: SecretValue(bytes: bytes, contentType: contentType), replace: replace,
                                                              as: call.identity)
                let path = SecretObjectPath.itemPath(collection: name, id: record.id)
                collectionChanged(name, item: path, signal: replaced ? SecretServiceSignals.itemChanged : SecretServiceSignals.itemCreated)
                return (.values([.objectPath(path), .objectPath(SecretServiceNames.noObject)]), [record.id])
            } catch {
                return (reply(for: error, path: call.path), [])
            }
        }
    }

    /// Deleting a collection asks the person first: the prompt's `Completed` says whether it
    /// went. The session collection, which lives as long as keychaind, is not deleted.
    private func deleteCollection(_ name: String, caller: String) -> DBusReply {
        guard name != SecretServiceNames.sessionCollection else {
            return .failure(SecretServiceError.notSupported, "The session collection lasts as long as keychaind: delete its items instead")
        }
        guard let prompt = newPrompt(owner: caller, action: .deleteCollection(name)) else {
            return .failure(SecretServiceError.failed, "Too many prompts are waiting for this client")
        }
        return .values([.objectPath(prompt)])
    }

    private func setCollectionLabel(_ label: String, of name: String, _ collection: any SecretCollection) -> DBusReply {
        if let problem = checkAttributes([:], label: label) { return .invalidArguments(problem) }
        do {
            try collection.setLabel(label)
        } catch {
            return reply(for: error, path: SecretObjectPath.collectionPath(name))
        }
        let path = SecretObjectPath.collectionPath(name)
        emit(path, SecretServiceNames.propertiesInterface, SecretServiceSignals.propertiesChanged,
             [.string(SecretServiceNames.collectionInterface), .properties([(SecretServiceProperties.label, .string(collection.label))]),
              .array(elementSignature: "s", [])])
        emit(SecretServiceNames.root, SecretServiceNames.serviceInterface, SecretServiceSignals.collectionChanged, [.objectPath(path)])
        return .empty
    }

    /// Why an attribute set or label is refused, or nil.
    func checkAttributes(_ attributes: [String: String], label: String) -> String? {
        guard attributes.count <= limits.attributesPerItem else { return "too many attributes (at most \(limits.attributesPerItem))" }
        let size = attributes.reduce(label.utf8.count) { $0 + $1.key.utf8.count + $1.value.utf8.count }
        guard size <= limits.attributeBytes else { return "the attributes and label are too large" }
        return nil
    }
}
