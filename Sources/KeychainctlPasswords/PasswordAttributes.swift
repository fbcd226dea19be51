package import KeychainStore
package import KeychainctlCommandLine
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A request's attributes as the engine stores them, following `security`'s mapping of its
/// flags: `-a` account, `-s` service (generic) or server (internet), `-l` label, `-D` kind
/// (`desc`), `-j` comment, `-G` generic attribute (UTF-8 data), `-c` creator and `-C` type
/// (four-character codes stored as numbers, as `kSecAttrCreator` and `kSecAttrType` hold them),
/// `-d` security domain, `-p` path, `-P` port (0 is none), `-r` protocol and `-t`
/// authentication type (the four characters, as the `kSecAttrProtocol…` and
/// `kSecAttrAuthenticationType…` constants are). Each value has the form SecItem's dictionary
/// reader (QueryParser) gives the value keychainctl once passed through SecItem, so an item
/// added here matches one added through the API. add's `--synchronizable` is
/// `kSecAttrSynchronizable` true, which, being part of the primary key, is also what `-U` looks for.
package struct PasswordAttributes: Sendable {
    package let item: PasswordCommandSyntax.Item
    /// By attribute name.
    package private(set) var values: [String: InputValue] = [:]
    /// `--synchronizable`.
    package let synchronizable: Bool

    /// The attribute each option key of ``PasswordCommandSyntax`` sets.
    static let names: [String: String] = [
        "account": AttributeName.account,
        "service": AttributeName.service,
        "server": AttributeName.server,
        "label": AttributeName.label,
        "kind": AttributeName.description,
        "comment": AttributeName.comment,
        "generic": AttributeName.generic,
        "creator": AttributeName.creator,
        "type": AttributeName.type,
        "securityDomain": AttributeName.securityDomain,
        "path": AttributeName.path,
        "protocolCode": AttributeName.`protocol`,
        "authenticationType": AttributeName.authenticationType,
    ]

    /// The request's attributes; throws ``PasswordFailure/badCode(option:value:)`` for the first
    /// malformed four-character code, in the order `-c`, `-C`, `-r`, `-t`.
    package init(_ request: PasswordRequest) throws(PasswordFailure) {
        item = request.item
        synchronizable = request.synchronizable
        for key in PasswordCommandSyntax.codeKeys {
            guard let text = request.attributes[key] else { continue }
            guard let code = FourCharacterCode(text) else {
                throw .badCode(option: PasswordCommandSyntax.option(key, of: item)?.names.first ?? key, value: text)
            }
            // Creator and type are numbers; protocol and authentication type their four characters.
            values[Self.names[key]!] = key == "creator" || key == "type" ? .integer(Int64(code.number)) : .string(text)
        }
        for (key, text) in request.attributes where !PasswordCommandSyntax.codeKeys.contains(key) {
            guard let name = Self.names[key] else { continue }
            values[name] = key == "generic" ? .data(Data(text.utf8)) : .string(text)
        }
        if let port = request.port, port != 0 { values[AttributeName.port] = .integer(Int64(port)) }
    }

    /// The attributes of the class's primary key that a command can give (generic: account and
    /// service; internet: account, domain, server, protocol, authentication type, port, path),
    /// taken from the engine's schema; the rest of the key (access group, synchronizable and the
    /// like) is the engine's to fill in.
    static func primaryKey(_ item: PasswordCommandSyntax.Item) -> [String] {
        let itemClass: ItemClass = item == .generic ? .genericPassword : .internetPassword
        let settable = Set(names.values).union([AttributeName.port])
        return itemClass.schema.primaryKey.filter(settable.contains)
    }

    /// What a find, delete or `-U` searches on, following `security`: the primary key alone
    /// when every attribute of it was given (so that `-U` can change the others), otherwise
    /// everything given.
    package var search: [String: InputValue] {
        let key = Self.primaryKey(item)
        var search = key.allSatisfy({ values[$0] != nil }) ? values.filter { key.contains($0.key) } : values
        // Without it the engine looks only at items that are not synchronizable, as SecItem does.
        if synchronizable { search[AttributeName.synchronizable] = .integer(1) }
        return search
    }

    /// What an add stores, or `-U` sets on the item it finds: what was given, the label
    /// defaulting to the service (or server), as in `security`.
    package var stored: [String: InputValue] {
        var stored = values
        if stored[AttributeName.label] == nil {
            stored[AttributeName.label] = values[item == .generic ? AttributeName.service : AttributeName.server]
        }
        return stored
    }

    /// ``stored``, and a new internet password's authentication type the default one, as
    /// `security` gives it.
    package var new: [String: InputValue] {
        var new = stored
        if synchronizable { new[AttributeName.synchronizable] = .integer(1) }
        if item == .internet && new[AttributeName.authenticationType] == nil {
            new[AttributeName.authenticationType] = .string(PasswordCommandSyntax.newInternetAuthenticationType)
        }
        return new
    }

    /// Each value converted for its attribute's kind in `itemClass`, as SecItem's dictionary
    /// reader converts it (an attribute the class lacks: `errSecNoSuchAttr`).
    static func coerced(_ values: [String: InputValue], _ itemClass: ItemClass) throws(KeychainStoreError) -> [String: AttributeValue] {
        var result: [String: AttributeValue] = [:]
        for (name, value) in values {
            guard let kind = itemClass.schema.attribute(name)?.kind else {
                throw KeychainStoreError(status: SecStatus.noSuchAttr, reason: "the item class has no attribute '\(name)'")
            }
            result[name] = try AttributeValue.coerce(value, to: kind)
        }
        return result
    }
}

/// A four-character code such as a creator (`-c`), type (`-C`), protocol (`-r`) or
/// authentication type (`-t`): exactly four ASCII bytes, packed into a 32-bit number first
/// character in the high byte ("note" is 0x6E6F7465), as `security` packs them.
package struct FourCharacterCode: Sendable, Equatable {
    package let text: String

    /// Nil unless `text` is exactly four bytes of ASCII.
    package init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 4, bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        self.text = text
    }

    package var number: UInt32 {
        text.utf8.reduce(0) { $0 << 8 | UInt32($1) }
    }
}
