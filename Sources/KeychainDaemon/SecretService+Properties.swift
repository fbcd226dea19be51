import Foundation
import KeychainDBus
import KeychainSecretService

/// `org.freedesktop.DBus.Properties` for the service, collections and items.
extension SecretService {
    func handleProperties(_ call: DBusMethodCall, _ object: SecretObjectPath) -> DBusReply {
        let interface = SecretServiceNames.propertiesInterface
        if matches(call, interface, "Get") {
            guard let name = call.arguments[1].stringValue else { return .invalidArguments("expected ss") }
            switch properties(of: object, path: call.path, caller: call.sender) {
            case .failure(let reply): return reply
            case .success(let all):
                guard let value = all.first(where: { $0.0 == name })?.1 else {
                    return .failure(SecretServiceError.unknownProperty, "No property \(name) at \(call.path)")
                }
                return .values([.variant(value)])
            }
        }
        if matches(call, interface, "GetAll") {
            switch properties(of: object, path: call.path, caller: call.sender) {
            case .failure(let reply): return reply
            case .success(let all): return .values([.properties(all)])
            }
        }
        if matches(call, interface, "Set") {
            guard let name = call.arguments[1].stringValue else { return .invalidArguments("expected ssv") }
            return setProperty(object, name: name, value: call.arguments[2].unwrapped, path: call.path)
        }
        return unknownMethod(call)
    }

    private enum PropertyAnswer {
        case success([(String, DBusValue)])
        case failure(DBusReply)
    }

    private func properties(of object: SecretObjectPath, path: String, caller: String) -> PropertyAnswer {
        switch object {
        case .service:
            let names = state.withLock { $0.collectionOrder.map(\.name) }
            return .success([("Collections", .objectPaths(names.map(SecretObjectPath.collectionPath)))])
        case .collection(let reference):
            guard let name = resolve(reference), let collection = collection(name) else { return .failure(noSuchObject(path)) }
            let items: [String]
            do {
                items = try collection.allItems().map { SecretObjectPath.itemPath(collection: name, id: $0.id) }
            } catch .locked {
                items = []
            } catch {
                return .failure(reply(for: error, path: path))
            }
            return .success([("Items", .objectPaths(items)), ("Label", .string(collection.label)),
                             ("Locked", .boolean(collection.isLocked)), ("Created", .uint64(collection.created)),
                             ("Modified", .uint64(collection.modified))])
        case .item(let reference, let id):
            guard let name = resolve(reference), let collection = collection(name) else { return .failure(noSuchObject(path)) }
            let canonical = SecretObjectPath.itemPath(collection: name, id: id)
            do {
                let record = try collection.item(id: id, grant: grant(for: caller, item: canonical))
                return .success([("Locked", .boolean(collection.isLocked)), ("Attributes", .stringDictionary(record.attributes)),
                                 ("Label", .string(record.label)), ("Created", .uint64(record.created)),
                                 ("Modified", .uint64(record.modified))])
            } catch .locked where !collection.isLocked {
                // An item that needs the user: it exists, and until a prompt opens it for this
                // client nothing of it is shown but that it is locked.
                return .success([("Locked", .boolean(true)), ("Attributes", .stringDictionary([:])), ("Label", .string("")),
                                 ("Created", .uint64(0)), ("Modified", .uint64(0))])
            } catch {
                return .failure(reply(for: error, path: path))
            }
        case .session, .prompt:
            return .success([])
        }
    }

    private func setProperty(_ object: SecretObjectPath, name: String, value: DBusValue, path: String) -> DBusReply {
        guard case .item(let reference, let id) = object else {
            return .failure(SecretServiceError.propertyReadOnly, "Only an item's Label and Attributes can be set here")
        }
        guard let collectionName = resolve(reference), let collection = collection(collectionName) else { return noSuchObject(path) }
        let itemPath = SecretObjectPath.itemPath(collection: collectionName, id: id)
        do {
            switch name {
            case "Label":
                guard let label = value.stringValue else { return .invalidArguments("Label is a string") }
                if let problem = checkAttributes([:], label: label) { return .invalidArguments(problem) }
                try collection.setLabel(id: id, label)
            case "Attributes":
                guard let attributes = value.stringDictionary else { return .invalidArguments("Attributes is a{ss}") }
                if let problem = checkAttributes(attributes, label: "") { return .invalidArguments(problem) }
                try collection.setAttributes(id: id, attributes)
            default:
                return .failure(SecretServiceError.propertyReadOnly, "The property \(name) cannot be set")
            }
        } catch {
            return reply(for: error, path: path)
        }
        emit(itemPath, SecretServiceNames.propertiesInterface, "PropertiesChanged",
             [.string(SecretServiceNames.itemInterface), .properties([]), .array(elementSignature: "s", [.string(name), .string("Modified")])])
        collectionChanged(collectionName, item: itemPath, member: "ItemChanged")
        return .empty
    }
}
