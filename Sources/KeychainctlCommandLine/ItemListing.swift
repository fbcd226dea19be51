/// A password item printed the way `security find-generic-password` and `dump-keychain` print
/// it:
///
///     keychain: "/home/alice/.local/share/keychains/login.keychain-db"
///     version: 512
///     class: "genp"
///     attributes:
///         0x00000007 <blob>="example.com"
///         0x00000008 <blob>=<NULL>
///         "acct"<blob>="alice"
///         …
///
/// The attributes are the ones the macOS file keychain lists for the class, in its order, with
/// its format names, plus `sync` (`kSecAttrSynchronizable`, 0 or 1): the file keychain has no
/// such attribute, but data-protection keychain items, as ours are, have it, and it is what tells
/// an item `keychainctl sync` carries from one it does not; it is in its alphabetical place among
/// the four-character names. An attribute the item does not have (or has empty) prints as
/// `<NULL>`, as an unset attribute does on macOS. The caller gives each attribute's bytes (the
/// per-credential commands' executor from the engine's values, dump-keychain from SecItem's).
package enum ItemListing {
    package enum Format: String, Sendable { case blob, uint32, sint32, timedate }

    /// One printed attribute: the tag as `security` shows it (the label and alias have numeric
    /// tags 7 and 8, the others their four-character names), and the attribute it shows.
    package struct Field: Sendable {
        package let tag: UInt32
        package let attribute: String
        package let format: Format

        init(_ tag: String, _ format: Format) {
            self.tag = tag.utf8.reduce(0) { $0 << 8 | UInt32($1) }
            self.attribute = tag
            self.format = format
        }

        init(number: UInt32, attribute: String, _ format: Format) {
            self.tag = number
            self.attribute = attribute
            self.format = format
        }
    }

    package static let genericPasswordFields: [Field] = [
        Field(number: 7, attribute: "labl", .blob), Field(number: 8, attribute: "alis", .blob),
        Field("acct", .blob), Field("cdat", .timedate), Field("crtr", .uint32), Field("cusi", .sint32),
        Field("desc", .blob), Field("gena", .blob), Field("icmt", .blob), Field("invi", .sint32),
        Field("mdat", .timedate), Field("nega", .sint32), Field("prot", .blob), Field("scrp", .sint32),
        Field("svce", .blob), Field("sync", .sint32), Field("type", .uint32),
    ]

    package static let internetPasswordFields: [Field] = [
        Field(number: 7, attribute: "labl", .blob), Field(number: 8, attribute: "alis", .blob),
        Field("acct", .blob), Field("atyp", .blob), Field("cdat", .timedate), Field("crtr", .uint32),
        Field("cusi", .sint32), Field("desc", .blob), Field("icmt", .blob), Field("invi", .sint32),
        Field("mdat", .timedate), Field("nega", .sint32), Field("path", .blob), Field("port", .uint32),
        Field("prot", .blob), Field("ptcl", .uint32), Field("scrp", .sint32), Field("sdmn", .blob),
        Field("srvr", .blob), Field("sync", .sint32), Field("type", .uint32),
    ]

    /// The lines for one item (each ending in a newline); `bytes` gives an attribute's value as
    /// `security` would print it, nil when the item has none.
    package static func render(keychainPath: String, item: PasswordCommandSyntax.Item, bytes: (String) -> [UInt8]?) -> String {
        var text = "keychain: " + SecurityFormat.buffer(Array(keychainPath.utf8)) + "\n"
        // macOS prints the keychain file's format version; 512 is what current macOS shows.
        text += "version: 512\n"
        text += "class: " + SecurityFormat.buffer(Array(item.classCode.utf8)) + "\n"
        text += "attributes:\n"
        for field in item == .generic ? genericPasswordFields : internetPasswordFields {
            text += "    " + SecurityFormat.uint32(field.tag) + "<" + field.format.rawValue + ">="
            text += value(bytes(field.attribute)) + "\n"
        }
        return text
    }

    /// One attribute value; `<NULL>` when absent or empty.
    package static func value(_ bytes: [UInt8]?) -> String {
        guard let bytes, !bytes.isEmpty else { return "<NULL>" }
        return SecurityFormat.buffer(bytes)
    }

    /// The `password: …` line `-g` prints on standard error.
    package static func passwordLine(_ secret: [UInt8]) -> String {
        "password: " + SecurityFormat.buffer(secret) + "\n"
    }
}
