import KeychainDBus
import KeychainSecretService
import KeychainStore

/// What every handler of the Secret Service's interface table is given: the service, the call
/// (its arguments already checked against the method's declared signature) and the object it
/// is addressed to, and the identity it is made as.
struct SecretCall: Sendable {
    let service: SecretService
    let call: DBusMethodCall
    let object: SecretObjectPath
    /// What the caller's connection was given (``SecretService/admission(of:)``): every
    /// collection call made for this call is made as it.
    let identity: ClientIdentity

    var arguments: [DBusValue] { call.arguments }
    var sender: String { call.sender }
    var path: String { call.path }

    /// Runs `body` on the collection this call's object is or belongs to; `NoSuchObject` when
    /// its name or alias names no served collection.
    func inCollection(_ body: (_ name: String, _ collection: any SecretCollection) -> DBusReply) -> DBusReply {
        switch resolvedCollection() {
        case .success(let (name, collection)): return body(name, collection)
        case .failure(let error): return .refusal(error)
        }
    }

    /// Runs `body` on the item this call is addressed to, in its collection.
    func onItem(_ body: (_ collection: String, _ store: any SecretCollection, _ id: String) -> DBusReply) -> DBusReply {
        guard case .item(_, let id) = object else { return service.noSuchObject(path) }
        return inCollection { name, collection in body(name, collection, id) }
    }

    /// The collection this call's object is or belongs to, resolved.
    func resolvedCollection() -> Result<(String, any SecretCollection), DBusError> {
        let reference: SecretObjectPath.CollectionReference
        switch object {
        case .collection(let named), .item(let named, _): reference = named
        default: return .failure(SecretService.noSuchObjectError(path))
        }
        guard let name = service.resolve(reference), let collection = service.collection(name) else {
            return .failure(SecretService.noSuchObjectError(path))
        }
        return .success((name, collection))
    }
}
