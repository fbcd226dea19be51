import Foundation
import KeychainDBus
import KeychainSecretService

/// `org.freedesktop.DBus.Properties` for every object: the properties, their types and who may
/// set them are those the object's own interface declares (``ownInterface(of:)``).
extension SecretService {
    static let propertiesTable = DBusInterface<SecretCall, Void>(
        SecretServiceNames.propertiesInterface,
        methods: [
            // The interface argument is not needed to tell the properties apart: each object
            // has those of one interface.
            DBusMethod("Get", in: [DBusArgument("interface", "s"), DBusArgument("name", "s")], out: [DBusArgument("value", "v")]) { call in
                guard let name = call.arguments[1].stringValue else { return .invalidArguments("expected ss") }
                switch ownInterface(of: call.object).propertyValue(name, call) {
                case .success(let value): return .values([.variant(value)])
                case .failure(let refusal): return .refusal(refusal)
                }
            },
            DBusMethod("GetAll", in: [DBusArgument("interface", "s")], out: [DBusArgument("properties", "a{sv}")]) { call in
                switch ownInterface(of: call.object).propertyValues(call) {
                case .success(let all): return .values([.properties(all)])
                case .failure(let refusal): return .refusal(refusal)
                }
            },
            DBusMethod("Set", in: [DBusArgument("interface", "s"), DBusArgument("name", "s"), DBusArgument("value", "v")]) { call in
                guard let name = call.arguments[1].stringValue else { return .invalidArguments("expected ssv") }
                guard let write = ownInterface(of: call.object).propertyWriter(name) else {
                    return .failure(SecretServiceError.propertyReadOnly, "The property \(name) cannot be set here")
                }
                return write(call, name, call.arguments[2].unwrapped)
            },
        ],
        signals: [SecretServiceSignals.propertiesChanged])
}
