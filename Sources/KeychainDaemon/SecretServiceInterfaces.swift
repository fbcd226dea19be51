package import KeychainDBus

/// The Secret Service's interface table: which interfaces each kind of object serves. Each
/// interface is declared once, beside its handlers (``SecretService/serviceTable`` and the
/// others): from those declarations come the signature check of every call, its dispatch, and
/// the introspection data `Introspect` answers, so the three cannot drift apart.
extension SecretService {
    /// The interfaces served at `object`, its own first: a call that names no interface is
    /// routed to the first that has its method. (Made once per kind of object: every call asks.)
    static func interfaces(at object: SecretObjectPath) -> [any DBusServedInterface<SecretCall>] {
        switch object {
        case .service: ServedInterfaces.service
        case .collection: ServedInterfaces.collection
        case .item: ServedInterfaces.item
        case .session: ServedInterfaces.session
        case .prompt: ServedInterfaces.prompt
        }
    }

    /// What introspection shows of the interfaces at `object`, in the order they are served.
    package static func interfaceDeclarations(at object: SecretObjectPath) -> [DBusInterfaceDeclaration] {
        interfaces(at: object).map(\.declaration)
    }

    /// The Secret Service interface of `object`: the one whose properties it has.
    static func ownInterface(of object: SecretObjectPath) -> any DBusServedInterface<SecretCall> {
        interfaces(at: object)[0]
    }

    private enum ServedInterfaces {
        static let service = served(serviceTable)
        static let collection = served(collectionTable)
        static let item = served(itemTable)
        static let session = served(sessionTable)
        static let prompt = served(promptTable)

        static func served(_ own: any DBusServedInterface<SecretCall>) -> [any DBusServedInterface<SecretCall>] {
            [own, propertiesTable, introspectableTable]
        }
    }

    static let introspectableTable = DBusInterface<SecretCall, Void>(SecretServiceNames.introspectableInterface, methods: [
        DBusMethod("Introspect", out: [DBusArgument(nil, "s")]) { call in
            .values([.string(DBusIntrospection.document(interfaceDeclarations(at: call.object)))])
        },
    ])
}

/// The signals the Secret Service sends, declared once for the interface tables and the emitters.
enum SecretServiceSignals {
    static let collectionCreated = DBusSignalDeclaration("CollectionCreated", [DBusArgument("collection", "o")])
    static let collectionDeleted = DBusSignalDeclaration("CollectionDeleted", [DBusArgument("collection", "o")])
    static let collectionChanged = DBusSignalDeclaration("CollectionChanged", [DBusArgument("collection", "o")])
    static let itemCreated = DBusSignalDeclaration("ItemCreated", [DBusArgument("item", "o")])
    static let itemDeleted = DBusSignalDeclaration("ItemDeleted", [DBusArgument("item", "o")])
    static let itemChanged = DBusSignalDeclaration("ItemChanged", [DBusArgument("item", "o")])
    static let completed = DBusSignalDeclaration("Completed", [DBusArgument("dismissed", "b"), DBusArgument("result", "v")])
    static let propertiesChanged = DBusSignalDeclaration("PropertiesChanged", ["s", "a{sv}", "as"])
}
