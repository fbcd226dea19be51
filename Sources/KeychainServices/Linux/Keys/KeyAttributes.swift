#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Foundation
import KeychainStore

/// The attributes Security derives from a software key (`SecKeyGeneratePrivateAttributeDictionary`
/// and `SecKeyGeneratePublicAttributeDictionary` in SecKey.m, with SecECKey.m turning `drve` off
/// for EC public keys and SecRSAKey.m turning `decr` on for RSA public keys). They are what
/// `SecKeyCopyAttributes` reports and what `kSecValueRef` stores.
enum KeyAttributes {
    /// `kSecAttrIsExtractable`'s name, which ``SecKey/isExtractable`` reads from a stored key.
    static let extractable = "extr"
    /// The flags a caller may set when storing a key (`kSecAttrIsSensitive`,
    /// `kSecAttrIsExtractable`): for a stored key the item's values are reported, not the derived ones.
    static let storedFlags: Set<String> = ["sens", extractable]

    /// The usage flags and other booleans of a key, by attribute name.
    static func flags(for material: KeyMaterial) -> [(String, Bool)] {
        let isPrivate = material.isPrivate
        // An Ed25519 key only signs and verifies: it has no encryption or key agreement.
        let signsOnly = material.family == .ed25519
        return [
            ("perm", true), ("priv", true), ("modi", true),
            ("sens", false), ("asen", false), (extractable, true), ("next", false),
            ("encr", !isPrivate && !signsOnly),
            ("decr", (isPrivate || material.isRSA) && !signsOnly),
            ("drve", material.family == .ec && isPrivate),
            ("sign", isPrivate), ("vrfy", !isPrivate),
            ("snrc", false), ("vyrc", false),
            ("wrap", !isPrivate && !signsOnly), ("unwp", isPrivate && !signsOnly),
        ]
    }

    /// The derived attributes in the engine's form (numbers as integers, the label as data).
    static func storable(for material: KeyMaterial, applicationLabel: Data) -> [String: AttributeValue] {
        var attributes: [String: AttributeValue] = [
            "kcls": .integer(material.isPrivate ? 1 : 0),
            "klbl": .data(applicationLabel),
            "type": .integer(Int64(material.keyType)),
            "bsiz": .integer(Int64(material.sizeInBits)),
            "esiz": .integer(Int64(material.sizeInBits)),
        ]
        for (name, value) in flags(for: material) { attributes[name] = .integer(value ? 1 : 0) }
        return attributes
    }

    /// `SecKeyCopyAttributes`: the derived attributes as Security returns them (class and type
    /// as the constants' strings, sizes as numbers, flags as booleans, the external
    /// representation as `v_Data`), overlaid with the item's own attributes for a stored key,
    /// whose sensitive and extractable marks are the item's.
    static func dictionary(for key: SecKey) -> NSDictionary {
        let material = key.material
        let dictionary = NSMutableDictionary()
        if let stored = key.storedItem?.attributes {
            for (name, value) in stored where !hiddenStoredAttributes.contains(name) {
                dictionary[name as NSString] = ValueConversion.object(value)
            }
        }
        dictionary["class"] = "keys" as NSString
        dictionary["kcls"] = (material.isPrivate ? "1" : "0") as NSString
        dictionary["type"] = String(material.keyType) as NSString
        dictionary["klbl"] = material.applicationLabel.resultObject
        dictionary["bsiz"] = NSNumber(value: material.sizeInBits)
        dictionary["esiz"] = NSNumber(value: material.sizeInBits)
        let stored = key.storedItem?.attributes ?? [:]
        for (name, derived) in flags(for: material) {
            let value = storedFlags.contains(name) ? stored[name]?.integerValue.map { $0 != 0 } ?? derived : derived
            dictionary[name as NSString] = NSNumber(value: value)
        }
        // A key that may not leave as bytes does not leave inside its attributes either.
        if key.isExtractable { dictionary["v_Data"] = material.externalRepresentation.resultObject }
        return dictionary
    }

    /// Stored attributes that are the keychain's bookkeeping rather than the key's.
    private static let hiddenStoredAttributes: Set<String> = [
        AttributeName.uuid, AttributeName.persistentReference, AttributeName.accessControl,
        AttributeName.multiUser, AttributeName.tombstone, AttributeName.sha1,
    ]
}

/// What a key read from the keychain remembers of its item.
struct KeyItemAttributes: @unchecked Sendable {
    let attributes: [String: AttributeValue]
    let persistentReference: Data
}

extension SecKey: KeychainItemReference {
    static var securityTypeID: SecurityTypeID { .key }
    static var storedClass: ItemClass { .key }

    /// Security's client keeps these of a SecKey's dictionary when the key is a query's
    /// `kSecValueRef` (the usage flags and `perm` are dropped; SecItem.m).
    static let queryAttributeNames: Set<String> = ["kcls", "klbl", "type", "bsiz", "esiz", "priv", "modi", "sens", "asen", "extr", "next"]

    func itemAttributes() -> [String: AttributeValue] { KeyAttributes.storable(for: material, applicationLabel: derivedBytes.applicationLabel) }

    func itemData() throws(StatusError) -> Data { derivedBytes.externalRepresentation }

    static func reference(from item: StoredItem, context: ReferenceContext) -> AnyObject? {
        guard let data = item.secret,
              let type = item.attributes["type"]?.integerValue,
              let keyClass = item.attributes["kcls"]?.integerValue, keyClass == 0 || keyClass == 1,
              let family = KeyFamily(rawValue: Int(type)),
              let material = try? KeyMaterial(externalRepresentation: data, family: family, isPrivate: keyClass == 1)
        else { return nil }
        let guardian = KeyUsageGuard(item: item, context: context)
        return SecKey(material: material,
                      storedItem: KeyItemAttributes(attributes: item.attributes, persistentReference: item.persistentReferenceData),
                      usageGuard: material.isPrivate ? guardian : nil)
    }
}
#endif
