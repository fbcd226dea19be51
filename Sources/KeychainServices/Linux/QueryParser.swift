#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Foundation
import KeychainStore

/// Reads a SecItem dictionary the way Security's daemon does (`query_applier` in `SecDbQuery.c`):
/// a key of exactly four characters is an attribute of the class (unknown: `errSecNoSuchAttr`);
/// otherwise its first letter says what it is (`c`lass, `m`atch, `r`eturn, `u`se, `v`alue; `f`
/// is ignored); anything else is `errSecParam`. The first error stops parsing.
enum QueryParser {
    static let returnKeys: Set<String> = ["r_Data", "r_Attributes", "r_Ref", "r_PersistentRef"]
    static let useKeys: Set<String> = [
        "u_ItemList", "u_Tomb", "u_CredRef", "u_OpPrompt", "u_NoAuthUI", "u_AuthUI", "u_AuthCtx",
        "u_SystemKeychainAlways", "u_SystemKeychain", "u_SyncBubbleKeychain", "u_CallerName",
        "u_TokenRawItems", "u_CertWithIssuers", "u_UserIndependentKeychain", "u_Keychain",
    ]
    /// inet's extra secret fields, which Security only lets entitled callers write.
    static let entitledInternetFields: Set<String> = ["binn", "bini", "bin0", "bin1", "bin2", "bin3"]

    static func parse(_ dictionaryEntries: DictionaryEntries, for operation: Operation) throws(StatusError) -> ParsedQuery {
        var query = ParsedQuery()
        var entries: [(String, Any)] = []
        entries.reserveCapacity(dictionaryEntries.count)
        // A key that is not a string fails when it is read, after the class and the size
        // checks: a number is looked up as an attribute (errSecNoSuchAttr), anything else is
        // errSecParam.
        var badKey: StatusError?
        for (key, value) in dictionaryEntries {
            guard let key = key as? String else {
                if badKey == nil { badKey = StatusError(key is NSNumber ? errSecNoSuchAttr : errSecParam) }
                continue
            }
            entries.append((key, value))
        }
        query.requestClass = try resolveClass(entries, &query)
        // Security sizes the query before reading any key, so an oversized dictionary is
        // errSecParam whatever else is wrong with it.
        let otherKeys = dictionaryEntries.count - entries.count
        // The exact size looks every key up in the class's schema; a query within the limit even
        // if every key counted (the usual few-key query) needs no look-up: the size never exceeds
        // the schema's count plus the keys.
        if querySize([], for: query.requestClass) + entries.count + otherKeys > queryKeyLimit {
            guard querySize(entries.map(\.0), for: query.requestClass) + otherKeys <= queryKeyLimit else { throw StatusError(errSecParam) }
        }
        if let badKey { throw badKey }
        for (key, value) in entries {
            try apply(key, value, to: &query, operation: operation)
        }
        try mergeReference(into: &query, operation: operation)
        if query.accessControl != nil && query.attributes[AttributeName.accessible] != nil { throw StatusError(errSecParam) }
        if query.attributes[AttributeName.sharingGroup] != nil && query.attributes[AttributeName.synchronizable]?.integerValue == 1 {
            throw StatusError(errSecParam)
        }
        if let control = query.accessControl {
            // Any access control object carries an ACL, and ACL items cannot synchronize.
            if query.attributes[AttributeName.synchronizable]?.integerValue == 1 && (operation == .add || operation == .update) { throw StatusError(errSecParam) }
            query.attributes[AttributeName.accessible] = .string(control.protection)
        }
        return query
    }

    /// Security's bound on a query's size (`QUERY_KEY_LIMIT` in `SecDbQuery.c`).
    static let queryKeyLimit = 128

    /// Names in Security's schema of every table class that have no counterpart among our
    /// attributes (row id, encrypted blob, secret, digest, access control, tombstone flag,
    /// persistent reference, app-clip flag).
    private static let schemaOnlyNames: Set<String> = [
        "rowid", "data", "v_Data", "v_pk", AttributeName.accessControl, "u_Tomb", AttributeName.persistentReference, "clip",
    ]

    /// How big Security considers a query (`query_create`): the number of attributes in the
    /// class's schema plus every dictionary key that is not one of them. Identities have no
    /// attributes of their own, so they count certificates' and keys' and every key.
    static func querySize(_ keys: [String], for requestClass: RequestClass) -> Int {
        func schemaCount(_ itemClass: ItemClass) -> Int {
            // inet also holds six entitlement-gated secret fields (binn, bini, bin0-bin3).
            itemClass.schema.attributes.count + schemaOnlyNames.count
                + (itemClass == .internetPassword ? entitledInternetFields.count : 0)
        }
        switch requestClass {
        case .identity:
            return schemaCount(.certificate) + schemaCount(.key) + keys.count
        case .table(let itemClass):
            let outside = keys.filter { key in
                itemClass.schema.attribute(key) == nil && !schemaOnlyNames.contains(key)
                    && !(itemClass == .internetPassword && entitledInternetFields.contains(key))
            }
            return schemaCount(itemClass) + outside.count
        }
    }

    /// The class comes from `kSecClass`, or from a persistent reference's prefix.
    private static func resolveClass(_ entries: [(String, Any)], _ query: inout ParsedQuery) throws(StatusError) -> RequestClass {
        if let (_, raw) = entries.first(where: { $0.0 == "v_PersistentRef" }) {
            guard let data = ValueConversion.data(raw) else { throw StatusError(errSecParam) }
            query.persistentReference = try PersistentReference(data)
        }
        var code: String
        if let (_, raw) = entries.first(where: { $0.0 == "class" }) {
            guard let name = raw as? String else { throw StatusError(errSecParam) }
            code = name
            if let reference = query.persistentReference, reference.classCode != name { throw StatusError(errSecNoSuchClass) }
        } else if let reference = query.persistentReference {
            code = reference.classCode
        } else if let (_, raw) = entries.first(where: { $0.0 == "v_Ref" }), let reference = ItemReferences.reference(raw) {
            // Security's client takes the class from the ref's attribute dictionary.
            code = type(of: reference).storedClass.code
        } else {
            throw StatusError(errSecParam)
        }
        if code == "idnt" { return .identity }
        guard let itemClass = ItemClass(code: code) else { throw StatusError(errSecNoSuchClass) }
        return .table(itemClass)
    }

    private static func apply(_ key: String, _ value: Any, to query: inout ParsedQuery, operation: Operation) throws(StatusError) {
        if key.utf16.count == 4 {
            try applyAttribute(key, value, to: &query, operation: operation)
            return
        }
        switch key.first {
        case "c":
            guard key == "class" else { throw StatusError(errSecParam) }
        case "m":
            if key == "m_Limit" {
                query.limit = try parseLimit(value)
            } else {
                query.matchKeys[key] = value
            }
        case "r":
            guard returnKeys.contains(key) else { throw StatusError(errSecParam) }
            // Matches Security: return keys take booleans only; @1 is errSecParam.
            guard let flag = ValueConversion.boolean(value) else { throw StatusError(errSecParam) }
            switch key {
            case "r_Data": query.returnData = flag
            case "r_Attributes": query.returnAttributes = flag
            case "r_Ref": query.returnRef = flag
            default: query.returnPersistentRef = flag
            }
        case "u":
            guard useKeys.contains(key) else { throw StatusError(errSecParam) }
            try applyUseKey(key, value, to: &query)
        case "v":
            switch key {
            case "v_Data":
                guard let data = ValueConversion.data(value) else { throw StatusError(errSecParam) }
                query.valueData = data
            case "v_PersistentRef":
                break // read with the class
            case "v_Ref":
                // Only keys and certificates have reference types (SecItemAttributesPrepare in
                // SecItem.m refuses anything else), and a ref of one class cannot stand for an
                // item of another.
                guard let reference = ItemReferences.reference(value),
                      query.requestClass == .table(type(of: reference).storedClass) else { throw StatusError(errSecParam) }
                query.valueReference = reference
            default:
                throw StatusError(errSecParam)
            }
        case "f":
            break
        default:
            throw StatusError(errSecParam)
        }
    }

    /// `kSecValueRef`: the ref's attributes become the item's (SecItemAdd) or filters (the other
    /// calls, only the attributes that identify the item), the caller's own values winning; an
    /// added item's data is the ref's.
    private static func mergeReference(into query: inout ParsedQuery, operation: Operation) throws(StatusError) {
        guard let reference = query.valueReference else { return }
        let referenceType = type(of: reference)
        for (name, value) in reference.itemAttributes() where query.attributes[name] == nil {
            if operation == .add || referenceType.queryAttributeNames.contains(name) { query.attributes[name] = value }
        }
        if operation == .add && query.valueData == nil { query.valueData = try reference.itemData() }
    }

    private static func parseLimit(_ value: Any) throws(StatusError) -> MatchLimit {
        if let name = value as? String {
            switch name {
            case "m_LimitOne": return .count(1)
            case "m_LimitAll": return .all
            default: throw StatusError(errSecParam)
            }
        }
        // A number must convert to an integer without loss (CFNumberGetValue to CFIndex);
        // a negative count is Security's "unlimited".
        switch ValueConversion.input(value) {
        case .integer(let n):
            return n < 0 ? .all : .count(Int(n))
        case .real(let r):
            guard let n = Int(exactly: r) else { throw StatusError(errSecParam) }
            return n < 0 ? .all : .count(n)
        default:
            throw StatusError(errSecParam)
        }
    }

    private static func applyUseKey(_ key: String, _ value: Any, to query: inout ParsedQuery) throws(StatusError) {
        switch key {
        case "u_AuthUI":
            guard let string = value as? String else { throw StatusError(errSecParam) }
            query.authenticationUI = string
        case "u_NoAuthUI":
            if ValueConversion.boolean(value) == true { query.authenticationUI = "u_AuthUIF" }
        case "u_OpPrompt":
            query.operationPrompt = value as? String
        case "u_AuthCtx":
            if query.authenticationContext != nil { throw StatusError(errSecParam) }
            query.authenticationContext = value as AnyObject
        case "u_CredRef":
            guard value is Data else { throw StatusError(errSecParam) }
            if query.authenticationContext != nil { throw StatusError(errSecParam) }
            query.authenticationContext = value as AnyObject
            query.authenticationContextIsCredentialReference = true
        case "u_ItemList":
            query.useItemList = true
        case "u_Tomb":
            // Security takes a boolean, a number (non-zero is true) or a string read as an
            // integer the way CFStringGetIntValue reads it (no leading integer: 0).
            switch ValueConversion.input(value) {
            case .boolean(let flag): query.useTombstones = flag
            case .integer(let n): query.useTombstones = n != 0
            case .real(let r): query.useTombstones = r != 0
            case .string(let s): query.useTombstones = leadingInteger(s) != 0
            default: throw StatusError(errSecParam)
            }
        default:
            break
        }
    }

    /// The integer a string starts with (after blanks, with an optional sign), or 0.
    static func leadingInteger(_ string: String) -> Int {
        let trimmed = string.drop { $0 == " " || $0 == "\t" || $0 == "\n" }
        var digits = ""
        for (offset, character) in trimmed.enumerated() {
            if offset == 0 && (character == "-" || character == "+") { digits.append(character); continue }
            guard character.isASCII, character.isNumber else { break }
            digits.append(character)
        }
        return Int(digits) ?? 0
    }

    private static func applyAttribute(_ name: String, _ value: Any, to query: inout ParsedQuery, operation: Operation) throws(StatusError) {
        switch name {
        case "nleg", AttributeName.multiUser:
            return // kSecUseDataProtectionKeychain is a no-op; the user view is not the caller's to set
        case "clip", "data", "v_pk":
            // Schema names no caller may set: the app-clip flag, the encrypted blob column, the
            // primary-key digest. Security finds them but cannot convert a value for them.
            throw StatusError(errSecParam)
        case AttributeName.accessControl:
            guard let control = value as? SecAccessControl else { throw StatusError(errSecParam) }
            query.accessControl = control
            return
        case AttributeName.synchronizable:
            if let string = value as? String, string == "syna" {
                query.anySynchronizable = true
                return
            }
        default:
            break
        }
        // Security's client turns an issuer given as a whole DER Name into the normalised form
        // stored for certificates (SecItemAttributesPrepare in SecItem.c).
        var value = value
        if name == "issr", let data = ValueConversion.data(value), let normalized = NameNormalizer.issuerQueryValue(data) {
            value = normalized
        }
        guard let kind = attributeKind(name, in: query.requestClass) else {
            if case .table(.internetPassword) = query.requestClass, entitledInternetFields.contains(name) {
                // inet's extra secret fields are data attributes without a column: the value
                // must convert to data, but it filters nothing. (Writing them needs an
                // entitlement, refused before parsing; see SecItemImplementation.)
                do { _ = try AttributeValue.coerce(ValueConversion.input(value), to: .data) } catch { throw StatusError(error.status) }
                return
            }
            throw StatusError(errSecNoSuchAttr)
        }
        do {
            query.attributes[name] = try AttributeValue.coerce(ValueConversion.input(value), to: kind)
        } catch {
            throw StatusError(error.status)
        }
    }

    /// The kind of attribute `name` in the requested class; identities accept any attribute of
    /// certificates or keys (certificates first, as Security looks them up).
    static func attributeKind(_ name: String, in requestClass: RequestClass) -> AttributeKind? {
        switch requestClass {
        case .table(let itemClass):
            return itemClass.schema.attribute(name)?.kind
        case .identity:
            return (ItemClass.certificate.schema.attribute(name) ?? ItemClass.key.schema.attribute(name))?.kind
        }
    }

    /// Reads `attributesToUpdate` (Security's `query_update_applier` in `SecDbQuery.c`): every key
    /// is looked up as a class attribute, so `class`, return, match and use keys are
    /// `errSecNoSuchAttr`; `v_Data` is the new secret; `musr`, `nleg`, `persistref` and
    /// `sync = syna` are ignored.
    static func parseChanges(_ changes: DictionaryEntries, for requestClass: RequestClass) throws(StatusError) -> (attributes: [String: AttributeValue], secret: Data?, accessControl: SecAccessControl?) {
        var attributes: [String: AttributeValue] = [:]
        var secret: Data?
        var accessControl: SecAccessControl?
        for (rawKey, value) in changes {
            guard let key = rawKey as? String else { throw StatusError(errSecParam) }
            switch key {
            case AttributeName.multiUser, "nleg", AttributeName.persistentReference: continue
            case "v_Data":
                guard let data = ValueConversion.data(value) else { throw StatusError(errSecParam) }
                secret = data
                continue
            case AttributeName.sharingGroup, "clip", "rowid", "v_pk", "data": throw StatusError(errSecParam)
            case AttributeName.accessControl:
                guard let control = value as? SecAccessControl else { throw StatusError(errSecParam) }
                accessControl = control
                continue
            case AttributeName.synchronizable:
                if (value as? String) == "syna" { continue }
            default: break
            }
            guard let kind = attributeKind(key, in: requestClass) else {
                if case .table(.internetPassword) = requestClass, entitledInternetFields.contains(key) { throw StatusError(errSecMissingEntitlement) }
                throw StatusError(errSecNoSuchAttr)
            }
            do {
                attributes[key] = try AttributeValue.coerce(ValueConversion.input(value), to: kind)
            } catch {
                throw StatusError(error.status)
            }
        }
        if let accessControl {
            if attributes[AttributeName.accessible] != nil { throw StatusError(errSecParam) }
            if attributes[AttributeName.synchronizable]?.integerValue == 1 { throw StatusError(errSecParam) }
            attributes[AttributeName.accessible] = .string(accessControl.protection)
        }
        return (attributes, secret, accessControl)
    }
}
#endif
