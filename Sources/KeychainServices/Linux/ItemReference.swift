#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Foundation
import KeychainAuthentication
import KeychainStore

/// An object that stands for a keychain item: a `SecKey` (keys) or a `SecCertificate`
/// (certificates). This is what Security's client does with such refs (`SecItemAttributesPrepare`
/// and `SecItemCopyAttributeDictionary` in SecItem.m, and the result conversion of
/// `SecItemResultCopyPrepared`):
/// - `kSecValueRef` in SecItemAdd stores the ref's attributes and data (caller-given attributes
///   win over the ref's);
/// - `kSecValueRef` in a query filters on some of those attributes;
/// - `kSecReturnRef` rebuilds a ref from a stored item;
/// - `kSecMatchItemList` keeps only the items of the refs listed.
///
/// A new reference type adopts this and is listed in ``ItemReferences/types``.
protocol KeychainItemReference: SecurityObject {
    /// The class whose table items of this type live in.
    static var storedClass: ItemClass { get }
    /// Of ``itemAttributes()``, the names a query filters on when it is given this ref.
    static var queryAttributeNames: Set<String> { get }
    /// The attributes Apple derives from the ref (its `Sec…CopyAttributeDictionary`), without
    /// the class and the data.
    func itemAttributes() -> [String: AttributeValue]
    /// The item's data: a key's external representation, a certificate's DER.
    func itemData() throws(StatusError) -> Data
    /// A ref for a stored item read with its data; nil when none can be made from it.
    static func reference(from item: StoredItem, context: ReferenceContext) -> AnyObject?
}

/// What a ref rebuilt from the keychain may need later: the keychain it came from and the
/// authentication the caller passed with the query (a key that needs authentication to be used
/// proves it with these, as Apple's keys use the LAContext of the query that fetched them).
struct ReferenceContext {
    let file: KeychainFile
    let authenticationContext: LAContext?
    let operationPrompt: String?
    let authenticationUI: String?

    init(file: KeychainFile, query: ParsedQuery) {
        self.file = file
        self.authenticationContext = query.authenticationContext as? LAContext
        self.operationPrompt = query.operationPrompt
        self.authenticationUI = query.authenticationUI
    }
}

/// The reference types, and lookups over them.
enum ItemReferences {
    /// Every reference type, one per class that has them.
    static var types: [any KeychainItemReference.Type] { [SecKey.self, SecCertificate.self] }

    /// The reference type of a class, if it has one (passwords do not).
    static func type(for itemClass: ItemClass) -> (any KeychainItemReference.Type)? {
        types.first { $0.storedClass == itemClass }
    }

    /// `value` as a reference, when it is one.
    static func reference(_ value: Any) -> (any KeychainItemReference)? {
        value as? any KeychainItemReference
    }

    /// A ref for a stored item, when its class has a reference type and the item can be read as one.
    static func reference(for item: StoredItem, context: ReferenceContext?) -> AnyObject? {
        guard let context, let type = type(for: item.itemClass) else { return nil }
        return type.reference(from: item, context: context)
    }

    /// Whether `item` is the item of `reference`: every attribute a query would filter on for it
    /// is equal.
    static func item(_ item: StoredItem, matches reference: any KeychainItemReference) -> Bool {
        let type = Swift.type(of: reference)
        guard type.storedClass == item.itemClass else { return false }
        let wanted = reference.itemAttributes()
        for name in type.queryAttributeNames {
            guard let value = wanted[name] else { continue }
            guard let kind = item.itemClass.schema.attribute(name)?.kind, let stored = item.attributes[name],
                  stored.matchBytes(for: kind) == value.matchBytes(for: kind) else { return false }
        }
        return true
    }
}
#endif
