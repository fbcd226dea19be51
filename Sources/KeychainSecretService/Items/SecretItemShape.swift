package import Foundation
package import KeychainStore

/// How a Secret Service attribute set becomes a keychain item, and back. There is one store: a
/// Secret Service item *is* a keychain item, so the attribute sets clients use most map onto the
/// keychain's own attributes, where `SecItem*` and `keychainctl` see them under their usual names.
///
/// - `service` and `username` (Python keyring's shape, and libsecret's "generic" one): a generic
///   password whose service and account are those values.
/// - libsecret's network-password schema (`user`, `server`, `protocol`, `port`, `object`,
///   `domain`, `authtype`; what git's libsecret helper stores): an internet password.
/// - Anything else: a generic password whose kind (`desc`) is ``otherKind``, whose service is the
///   `xdg:schema` (or empty) and whose account is the attribute set written canonically, so the
///   exact set is the item's primary key.
///
/// Attributes the keychain's columns do not hold (Python keyring's `application`, an
/// `xdg:schema`) travel in the item's generic attribute (`gena`) as ``StoredAttributes``, sealed
/// like every attribute, so every set round-trips exactly. An item written by `SecItemAdd` has
/// no such record; its attribute set is derived from its columns.
package enum SecretItemShape: Equatable, Sendable {
    case genericPassword(service: String, account: String)
    case internetPassword(NetworkFields)
    case other(schema: String, canonical: String)

    /// The attributes of the generic shape (Python keyring's, libsecret's "generic" one): the
    /// service and the account of a generic password.
    static let serviceAttribute = "service"
    static let usernameAttribute = "username"
    static let genericAttributes: Set<String> = [serviceAttribute, usernameAttribute]

    /// The `xdg:schema` attribute libsecret adds when a client names a schema.
    package static let schemaAttribute = "xdg:schema"
    /// libsecret's schema for network passwords (gnome-keyring's name, kept by libsecret).
    package static let networkSchema = "org.gnome.keyring.NetworkPassword"
    /// The schemas whose items are network passwords: libsecret's, and the one git's libsecret
    /// helper names since git 2.45 (same attributes).
    package static let networkSchemas: Set<String> = [networkSchema, "org.git.Password"]
    /// The kind (`desc`) of items whose attribute set has no keychain shape, so that they can be
    /// found as a group by their blind index.
    package static let otherKind = "Secret Service item"

    /// The shape an attribute set is stored in.
    package init(_ attributes: [String: String]) {
        if let service = attributes[Self.serviceAttribute], let account = attributes[Self.usernameAttribute] {
            self = .genericPassword(service: service, account: account)
        } else if let fields = NetworkFields(attributes) {
            self = .internetPassword(fields)
        } else {
            self = .other(schema: attributes[Self.schemaAttribute] ?? "", canonical: StoredAttributes.canonicalText(attributes))
        }
    }

    /// The attribute set of a generic password that has no stored record (one `SecItemAdd` or
    /// `keychainctl` wrote): its service and account in the generic shape.
    static func attributes(ofGenericPassword item: [String: AttributeValue]) -> [String: String] {
        [serviceAttribute: item[AttributeName.service]?.text ?? "", usernameAttribute: item[AttributeName.account]?.text ?? ""]
    }

    /// Index filters for generic passwords: the service and account a search names, if any.
    static func genericFilters(_ search: [String: String]) -> [String: AttributeValue] {
        var filters: [String: AttributeValue] = [:]
        if let service = search[serviceAttribute] { filters[AttributeName.service] = .string(service) }
        if let account = search[usernameAttribute] { filters[AttributeName.account] = .string(account) }
        return filters
    }

    /// The attributes a search matches an item by: its own, and for an internet password without
    /// a schema of its own also the network schema the search names, since every internet
    /// password is a network password. (libsecret searches with `xdg:schema`, git's helper among
    /// its users, and must find the internet passwords `SecItemAdd` and `keychainctl` wrote too.)
    static func searchableAttributes(_ attributes: [String: String], of itemClass: ItemClass,
                                     for search: [String: String]) -> [String: String] {
        guard itemClass == .internetPassword, attributes[schemaAttribute] == nil,
              let schema = search[schemaAttribute], networkSchemas.contains(schema) else { return attributes }
        var searchable = attributes
        searchable[schemaAttribute] = schema
        return searchable
    }

    var itemClass: ItemClass {
        if case .internetPassword = self { return .internetPassword }
        return .genericPassword
    }

    /// The keychain attributes that identify an item of this shape (its primary key, less the
    /// access group, which the collection adds).
    var keyAttributes: [String: AttributeValue] {
        switch self {
        case .genericPassword(let service, let account):
            return [AttributeName.service: .string(service), AttributeName.account: .string(account)]
        case .internetPassword(let fields):
            return fields.keychainAttributes
        case .other(let schema, let canonical):
            return [AttributeName.service: .string(schema), AttributeName.account: .string(canonical),
                    AttributeName.description: .string(Self.otherKind)]
        }
    }
}

/// The record a Secret Service item keeps in its generic attribute (`gena`): its whole attribute
/// set and the secret's content type. Written as JSON with sorted keys behind a marker, so that a
/// `gena` an application wrote for itself is never mistaken for one.
package struct StoredAttributes: Codable, Equatable, Sendable {
    package var attributes: [String: String]
    package var contentType: String

    private static let marker = Data("swift-keychain.secret-service.v1:".utf8)

    package init(attributes: [String: String], contentType: String) {
        self.attributes = attributes
        self.contentType = contentType
    }

    package var encoded: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding a struct of strings cannot fail.
        return Self.marker + ((try? encoder.encode(self)) ?? Data())
    }

    package init?(_ value: AttributeValue?) {
        guard let data = value?.dataValue ?? value?.stringValue.map({ Data($0.utf8) }),
              Self.hasMarker(data) else { return nil }
        let json = data.dropFirst(Self.marker.count)
        // The reader knows the shape `encoded` writes; JSONDecoder stays the judge of anything else.
        if let read = StoredAttributesReader.read(json) {
            self = read
            return
        }
        guard let decoded = try? JSONDecoder().decode(StoredAttributes.self, from: json) else { return nil }
        self = decoded
    }

    /// Whether `data` begins with the marker: one `memcmp` of the two buffers (the generic
    /// `starts(with:)` walked Data's iterator byte by byte, a few thousand instructions per search hit).
    private static func hasMarker(_ data: Data) -> Bool {
        guard data.count >= marker.count else { return false }
        return data.withUnsafeBytes { bytes in
            marker.withUnsafeBytes { prefix in memcmp(bytes.baseAddress!, prefix.baseAddress!, prefix.count) == 0 }
        }
    }

    /// An attribute set as one line of text, the same for the same set: sorted `name=value`
    /// pairs, with `%`, `&` and `=` escaped so that no two sets share a text.
    package static func canonicalText(_ attributes: [String: String]) -> String {
        func escaped(_ text: String) -> String {
            text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "&", with: "%26")
                .replacingOccurrences(of: "=", with: "%3D")
        }
        return attributes.sorted { $0.key < $1.key }.map { escaped($0.key) + "=" + escaped($0.value) }.joined(separator: "&")
    }
}

extension AttributeValue {
    /// The value as text, whichever way it was stored (Apple code may write a service as data).
    var text: String? {
        switch self {
        case .string(let s): return s
        case .data(let d): return String(validating: d, as: UTF8.self)
        case .integer(let i): return String(i)
        case .real, .date: return nil
        }
    }

    /// A protocol code, stored as its four characters or as the number they spell.
    var fourCharacterCode: String? {
        if case .string(let s) = self { return s }
        guard let number = integerValue, (0...Int64(UInt32.max)).contains(number) else { return nil }
        let bytes = withUnsafeBytes(of: UInt32(number).bigEndian) { Array($0) }
        return String(validating: bytes, as: UTF8.self)
    }
}
