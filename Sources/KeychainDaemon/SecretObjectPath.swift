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
        if path == SecretServiceNames.root {
            self = .service
            return
        }
        // Byte by byte: paths are ASCII by D-Bus's rules, and String's Unicode-aware prefix test
        // and split were a few percent of a lookup's time in the daemon.
        let bytes = path.utf8
        func elements(after prefix: String) -> [Substring]? {
            guard bytes.starts(with: prefix.utf8) else { return nil }
            let rest = bytes.dropFirst(prefix.utf8.count)
            let parts = rest.split(separator: UInt8(ascii: "/"), maxSplits: 2, omittingEmptySubsequences: false)
            guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty }) else { return nil }
            return parts.map { Substring($0) }
        }
        if let parts = elements(after: SecretServiceNames.collectionPrefix) {
            self = Self.collectionOrItem(.name(String(parts[0])), parts)
        } else if let parts = elements(after: SecretServiceNames.aliasPrefix) {
            self = Self.collectionOrItem(.alias(String(parts[0])), parts)
        } else if let parts = elements(after: SecretServiceNames.sessionPrefix), parts.count == 1 {
            self = .session(String(parts[0]))
        } else if let parts = elements(after: SecretServiceNames.promptPrefix), parts.count == 1 {
            self = .prompt(String(parts[0]))
        } else {
            return nil
        }
    }

    private static func collectionOrItem(_ reference: CollectionReference, _ parts: [Substring]) -> SecretObjectPath {
        parts.count == 1 ? .collection(reference) : .item(reference, id: String(parts[1]))
    }

    /// The canonical path of a collection.
    package static func collectionPath(_ name: String) -> String { SecretServiceNames.collectionPrefix + name }
    /// The canonical path of an item.
    package static func itemPath(collection: String, id: String) -> String { collectionPath(collection) + "/" + id }
}
