/// What an object path names in the daemon's tree. Collections are reached by their own path
/// (`…/collection/login`) or through an alias (`…/aliases/default`); items by either, followed by
/// their id. Parsing only splits the path: whether the collection, alias or item exists is the
/// service's question.
package enum SecretObjectPath: Equatable, Sendable {
    case service
    /// A collection by name, or by alias (resolved later).
    case collection(CollectionReference)
    case item(CollectionReference, id: String)
    case session(String)
    case prompt(String)

    package enum CollectionReference: Equatable, Sendable {
        case name(String)
        case alias(String)
    }

    /// The object at `path`, or nil for a path outside the tree (or malformed inside it).
    package init?(_ path: String) {
        // On the string's own UTF-8 bytes: paths are ASCII by D-Bus's rules, and every lookup
        // parses two of them (the item's, the session's), where String's Unicode-aware prefix
        // test and split, then generic byte-view ones, cost a few percent of the daemon's work.
        var path = path
        guard let parsed = path.withUTF8({ Self.parse($0) }) else { return nil }
        self = parsed
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> SecretObjectPath? {
        let root = PathBytes.root
        if bytes.count == root.count, hasPrefix(bytes, root) { return .service }
        if let parts = elements(bytes, after: PathBytes.collection) {
            return collectionOrItem(.name(parts.first), parts.second)
        }
        if let parts = elements(bytes, after: PathBytes.alias) {
            return collectionOrItem(.alias(parts.first), parts.second)
        }
        if let parts = elements(bytes, after: PathBytes.session), parts.second == nil { return .session(parts.first) }
        if let parts = elements(bytes, after: PathBytes.prompt), parts.second == nil { return .prompt(parts.first) }
        return nil
    }

    /// The tree's prefixes as bytes, made once.
    private enum PathBytes {
        static let root = Array(SecretServiceNames.root.utf8)
        static let collection = Array(SecretServiceNames.collectionPrefix.utf8)
        static let alias = Array(SecretServiceNames.aliasPrefix.utf8)
        static let session = Array(SecretServiceNames.sessionPrefix.utf8)
        static let prompt = Array(SecretServiceNames.promptPrefix.utf8)
    }

    private static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, _ prefix: [UInt8]) -> Bool {
        guard bytes.count >= prefix.count else { return false }
        for index in prefix.indices where bytes[index] != prefix[index] { return false }
        return true
    }

    /// What follows `prefix`: one element, or two separated by a slash, none of them empty;
    /// nil for anything else (no such prefix, an empty element, a third element).
    private static func elements(_ bytes: UnsafeBufferPointer<UInt8>, after prefix: [UInt8]) -> (first: String, second: String?)? {
        guard hasPrefix(bytes, prefix) else { return nil }
        let rest = UnsafeBufferPointer(rebasing: bytes[prefix.count...])
        guard !rest.isEmpty else { return nil }
        let slash = UInt8(ascii: "/")
        guard let split = rest.firstIndex(of: slash) else { return (String(decoding: rest, as: UTF8.self), nil) }
        let first = UnsafeBufferPointer(rebasing: rest[..<split])
        let second = UnsafeBufferPointer(rebasing: rest[(split + 1)...])
        guard !first.isEmpty, !second.isEmpty, !second.contains(slash) else { return nil }
        return (String(decoding: first, as: UTF8.self), String(decoding: second, as: UTF8.self))
    }

    private static func collectionOrItem(_ reference: CollectionReference, _ id: String?) -> SecretObjectPath {
        guard let id else { return .collection(reference) }
        return .item(reference, id: id)
    }

    /// Letters, digits and `_`: what an object path element and an alias may contain.
    static func isPathElementByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
    }

    /// The canonical path of a collection.
    package static func collectionPath(_ name: String) -> String { SecretServiceNames.collectionPrefix + name }
    /// The canonical path of an item.
    package static func itemPath(collection: String, id: String) -> String {
        // One buffer of the final size: every search hit and every secret returned makes one.
        var path = SecretServiceNames.collectionPrefix
        path.reserveCapacity(path.utf8.count + collection.utf8.count + 1 + id.utf8.count)
        path += collection
        path += "/"
        path += id
        return path
    }
}
