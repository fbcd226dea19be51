/// The attributes of one item class, following the class descriptions of Security's keychain
/// schema version 12.11 (`SecItemSchema.c`): names, kinds, primary key, defaults.
package struct ItemSchema: Sendable {
    package let itemClass: ItemClass
    /// Every attribute a caller may name, in schema order.
    package let attributes: [AttributeDescriptor]
    /// The primary key, in Apple's column order.
    package let primaryKey: [String]
    private let byName: [String: AttributeDescriptor]
    /// Names of the attributes the item digest covers, sorted (the order the codec writes them).
    let hashedNames: [String]

    init(_ itemClass: ItemClass, _ specific: [AttributeDescriptor], primaryKey: [String]) {
        self.itemClass = itemClass
        self.attributes = specific + ItemSchema.common
        self.primaryKey = primaryKey
        var map: [String: AttributeDescriptor] = [:]
        for attribute in attributes { map[attribute.name] = attribute }
        self.byName = map
        self.hashedNames = attributes.filter(\.isHashed).map(\.name).sorted()
    }

    /// The attribute called `name`, or nil when the class has none (`errSecNoSuchAttr`).
    package func attribute(_ name: String) -> AttributeDescriptor? { byName[name] }

    /// Attributes with a blind-index column (all but the ones kept in fixed columns).
    var indexedAttributes: [AttributeDescriptor] {
        attributes.filter { !ItemSchema.fixedColumns.contains($0.name) }
    }

    /// Attributes stored in their own plain or dedicated columns rather than as blind indexes.
    static let fixedColumns: Set<String> = ["agrp", "pdmn", "sync", "tomb", "musr", "sha1", "cdat", "mdat", "UUID"]

    static func of(_ itemClass: ItemClass) -> ItemSchema {
        switch itemClass {
        case .genericPassword: return genericPassword
        case .internetPassword: return internetPassword
        case .certificate: return certificate
        case .key: return key
        }
    }

    // Attributes every class has (the "common" block of Security's schema).
    private static let common: [AttributeDescriptor] = [
        .init("cdat", .date),
        .init("mdat", .date),
        .init("agrp", .string, primaryKey: true, hasDefault: true),
        .init("pdmn", .access),
        .init("sync", .sync, primaryKey: true, hasDefault: true),
        .init("tomb", .tomb, hasDefault: true, returned: false),
        .init("sha1", .sha1, hashed: false),
        .init("vwht", .string, primaryKey: true),
        .init("tkid", .string, primaryKey: true),
        .init("musr", .uuid, primaryKey: true, hasDefault: true, returned: false, hashed: false),
        .init("UUID", .string, returned: false, hashed: false),
        .init("sysb", .number),
        .init("pcss", .number),
        .init("pcsk", .blob),
        .init("pcsi", .blob),
        .init("ggrp", .string, primaryKey: true),
    ]

    private static let passwordCommon: [AttributeDescriptor] = [
        .init("desc", .blob), .init("icmt", .blob), .init("crtr", .number), .init("type", .number),
        .init("scrp", .number), .init("labl", .blob), .init("alis", .blob), .init("invi", .number),
        .init("nega", .number), .init("cusi", .number), .init("prot", .blob),
        .init("acct", .blob, primaryKey: true, hasDefault: true),
    ]

    static let genericPassword = ItemSchema(
        .genericPassword,
        passwordCommon + [
            .init("svce", .blob, primaryKey: true, hasDefault: true),
            .init("gena", .blob),
        ],
        primaryKey: ["acct", "svce", "agrp", "sync", "vwht", "tkid", "musr", "ggrp"])

    static let internetPassword = ItemSchema(
        .internetPassword,
        passwordCommon + [
            .init("sdmn", .blob, primaryKey: true, hasDefault: true),
            .init("srvr", .blob, primaryKey: true, hasDefault: true),
            .init("ptcl", .number, primaryKey: true, hasDefault: true),
            .init("atyp", .blob, primaryKey: true, hasDefault: true),
            .init("port", .number, primaryKey: true, hasDefault: true),
            .init("path", .blob, primaryKey: true, hasDefault: true),
        ],
        primaryKey: ["acct", "sdmn", "srvr", "ptcl", "atyp", "port", "path", "agrp", "sync", "vwht", "tkid", "musr", "ggrp"])

    static let certificate = ItemSchema(
        .certificate,
        [
            .init("ctyp", .number, primaryKey: true, hasDefault: true), .init("cenc", .number),
            .init("labl", .blob), .init("alis", .blob), .init("subj", .data),
            .init("issr", .data, primaryKey: true, hasDefault: true),
            .init("slnr", .data, primaryKey: true, hasDefault: true),
            .init("skid", .data), .init("pkhh", .data),
        ],
        primaryKey: ["ctyp", "issr", "slnr", "agrp", "sync", "vwht", "tkid", "musr", "ggrp"])

    static let key = ItemSchema(
        .key,
        [
            .init("kcls", .number, primaryKey: true, hasDefault: true),
            .init("labl", .blob), .init("alis", .blob),
            .init("perm", .number), .init("priv", .number), .init("modi", .number),
            .init("klbl", .data, primaryKey: true, hasDefault: true),
            .init("atag", .blob, primaryKey: true, hasDefault: true),
            .init("crtr", .number, primaryKey: true, hasDefault: true),
            .init("type", .number, primaryKey: true, hasDefault: true),
            .init("bsiz", .number, primaryKey: true, hasDefault: true),
            .init("esiz", .number, primaryKey: true, hasDefault: true),
            .init("sdat", .date, primaryKey: true, hasDefault: true),
            .init("edat", .date, primaryKey: true, hasDefault: true),
        ] + ["sens", "asen", "extr", "next", "encr", "decr", "drve", "sign", "vrfy", "snrc", "vyrc", "wrap", "unwp"]
            .map { AttributeDescriptor($0, .number) },
        primaryKey: ["kcls", "klbl", "atag", "crtr", "type", "bsiz", "esiz", "sdat", "edat", "agrp", "sync", "vwht", "tkid", "musr", "ggrp"])
}
