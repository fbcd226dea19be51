#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Foundation
import KeychainAuthentication
import KeychainStore

/// A value of a SecItem dictionary or result as it travels between a served process and its
/// keeper (docs/design-notes.md, "The keeper"): what Core Foundation property lists hold, and
/// the Security objects SecItem takes and gives, each by what rebuilds it on the other side.
indirect enum KeeperValue: Equatable, Sendable {
    case null
    case boolean(Bool)
    case integer(Int64)
    /// An unsigned 64-bit number above `Int64.max`, kept as given so the keeper judges it.
    case unsigned(UInt64)
    case real(Double)
    case string(String)
    case data(Data)
    /// Seconds since 2001-01-01, as Core Foundation counts dates.
    case date(Double)
    case array([KeeperValue])
    case dictionary([KeeperEntry])
    case accessControl(protection: String, flags: UInt64)
    case certificate(der: Data)
    case key(KeeperKey)
    case identity(certificate: Data, key: KeeperKey)
    /// An LAContext: only whether it allows interaction crosses; the keeper asks no one itself.
    case authenticationContext(interactionNotAllowed: Bool)
    /// A `SecPolicy` (kSecMatchPolicy): what it checks, as ``SecPolicy/Kind`` says.
    case policy(SecPolicy.Kind)
}

struct KeeperEntry: Equatable, Sendable {
    var key: KeeperValue
    var value: KeeperValue
}

/// A SecKey as it crosses: its material and, for a stored key, the item's attributes.
struct KeeperKey: Equatable, Sendable {
    var family: KeyFamily
    var isPrivate: Bool
    var externalRepresentation: Data
    var storedAttributes: [String: AttributeValue]?
    var persistentReference: Data?
}

/// Why a value cannot cross.
struct KeeperValueError: Error, CustomStringConvertible {
    let status: OSStatus
    let description: String
}

extension KeeperValue {
    /// The value of an object a caller put in a dictionary or the keeper returned.
    init(object: Any) throws(KeeperValueError) {
        if type(of: object) == String.self, let string = object as? String { self = .string(string); return }
        if let data = ValueConversion.data(object) { self = .data(data); return }
        switch object {
        case let string as String: self = .string(string)
        case let date as Date: self = .date(date.timeIntervalSinceReferenceDate)
        case is NSNull: self = .null
        case let bool as Bool where type(of: object) == Bool.self: self = .boolean(bool)
        case let number as NSNumber: self = Self.number(number)
        case let control as SecAccessControl:
            self = .accessControl(protection: control.protection, flags: UInt64(control.flags.rawValue))
        case let certificate as SecCertificate: self = .certificate(der: certificate.der)
        case let key as SecKey: self = .key(try KeeperKey(key))
        case let identity as SecIdentity:
            self = .identity(certificate: identity.certificate.der, key: try KeeperKey(identity.privateKey))
        case let context as LAContext: self = .authenticationContext(interactionNotAllowed: context.interactionNotAllowed)
        case let policy as SecPolicy: self = .policy(policy.kind)
        case let dictionary as NSDictionary:
            var entries: [KeeperEntry] = []
            entries.reserveCapacity(dictionary.count)
            for (key, value) in dictionary {
                entries.append(KeeperEntry(key: try KeeperValue(object: key), value: try KeeperValue(object: value)))
            }
            self = .dictionary(entries)
        case let array as NSArray:
            var elements: [KeeperValue] = []
            elements.reserveCapacity(array.count)
            for element in array { elements.append(try KeeperValue(object: element)) }
            self = .array(elements)
        default:
            // The type's name is not user data; saying it tells the developer what to change.
            throw KeeperValueError(status: errSecParam,
                                   description: "a \(type(of: object)) cannot be sent to keychaind, the keeper")
        }
    }

    private static func number(_ number: NSNumber) -> KeeperValue {
        if number.isBooleanObject { return .boolean(number.boolValue) }
        switch UInt8(bitPattern: number.objCType.pointee) {
        case UInt8(ascii: "f"), UInt8(ascii: "d"): return .real(number.doubleValue)
        case UInt8(ascii: "Q") where number.uint64Value > UInt64(Int64.max): return .unsigned(number.uint64Value)
        default: return .integer(number.int64Value)
        }
    }

    /// The object this value stands for, as SecItem hands such values out.
    func object() throws(KeeperValueError) -> AnyObject {
        switch self {
        case .null: return NSNull()
        case .boolean(let bool): return NSNumber(value: bool)
        case .integer(let integer): return NSNumber(value: integer)
        case .unsigned(let unsigned): return NSNumber(value: unsigned)
        case .real(let real): return NSNumber(value: real)
        case .string(let string): return string as NSString
        case .data(let data): return data.resultObject
        case .date(let seconds): return NSDate(timeIntervalSinceReferenceDate: seconds)
        case .array(let elements):
            var objects: [AnyObject] = []
            objects.reserveCapacity(elements.count)
            for element in elements { objects.append(try element.object()) }
            return objects as NSArray
        case .dictionary(let entries):
            let dictionary = NSMutableDictionary(capacity: entries.count)
            for entry in entries {
                // A key is a string (a kSec constant or an attribute name), an integer or data:
                // the SecItem calls answer the last two with their own statuses, as embedded.
                // Any other kind is refused here as a parameter error, before Foundation reads
                // the dictionary: it traps on a dictionary as a key, and on two keys it holds
                // apart that are equal once bridged (a boolean and a number, say), both found
                // by FuzzKeeper. Two integer keys of one value are one key, as they are to
                // NSDictionary.
                switch entry.key {
                case .string, .data, .integer:
                    guard let key = try entry.key.object() as? NSObject else { throw Self.malformed("a dictionary key") }
                    dictionary[key] = try entry.value.object()
                default:
                    throw KeeperValueError(status: errSecParam, description: "the keeper's message holds a dictionary key that is not a string, an integer or data")
                }
            }
            return dictionary
        case .accessControl(let protection, let flags):
            return SecAccessControl(protection: protection, flags: SecAccessControlCreateFlags(rawValue: CFOptionFlags(flags)))
        case .certificate(let der):
            guard let certificate = SecCertificate(der: der) else { throw Self.malformed("a certificate") }
            return certificate
        case .key(let key): return try key.secKey()
        case .identity(let der, let key):
            guard let certificate = SecCertificate(der: der),
                  let identity = SecIdentity(certificate: certificate, privateKey: try key.secKey()) else {
                throw Self.malformed("an identity")
            }
            return identity
        case .authenticationContext(let interactionNotAllowed):
            let context = LAContext()
            context.interactionNotAllowed = interactionNotAllowed
            return context
        case .policy(let kind):
            return SecPolicy(kind)
        }
    }

    static func malformed(_ what: String) -> KeeperValueError {
        KeeperValueError(status: errSecDecode, description: "the keeper's message holds \(what) that cannot be read")
    }
}

extension KeeperKey {
    /// A key that only the keeper may use cannot cross: a stored private key whose access
    /// control asks for authentication on each use would arrive without that guard, usable by
    /// anyone holding the object.
    init(_ key: SecKey) throws(KeeperValueError) {
        if key.usageGuard != nil {
            throw KeeperValueError(status: errSecUnimplemented, description:
                "a private key whose access control guards each use cannot be handed out by the keeper yet")
        }
        family = key.material.family
        isPrivate = key.material.isPrivate
        externalRepresentation = key.derivedBytes.externalRepresentation
        storedAttributes = key.storedItem?.attributes
        persistentReference = key.storedItem?.persistentReference
    }

    func secKey() throws(KeeperValueError) -> SecKey {
        guard let material = try? KeyMaterial(externalRepresentation: externalRepresentation, family: family, isPrivate: isPrivate) else {
            throw KeeperValue.malformed("a key")
        }
        let stored = storedAttributes.map { KeyItemAttributes(attributes: $0, persistentReference: persistentReference ?? Data()) }
        return SecKey(material: material, storedItem: stored)
    }
}
#endif
