import Foundation

/// Prints a password item the way `security find-generic-password` and `dump-keychain` do:
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
/// its format names. An attribute the item does not have (or has empty) prints as `<NULL>`, as
/// an unset attribute does on macOS.
enum ItemPrinter {
    enum Format: String { case blob, uint32, sint32, timedate }

    /// One printed attribute: the tag as `security` shows it (the label and alias have numeric
    /// tags 7 and 8, the others their four-character names), and where our value comes from.
    struct Field {
        let tag: UInt32
        let attribute: String
        let format: Format

        init(_ tag: String, _ format: Format) {
            self.tag = FourCharCode(tag)!.number
            self.attribute = tag
            self.format = format
        }

        init(number: UInt32, attribute: String, _ format: Format) {
            self.tag = number
            self.attribute = attribute
            self.format = format
        }
    }

    static let genericPasswordFields: [Field] = [
        Field(number: 7, attribute: "labl", .blob), Field(number: 8, attribute: "alis", .blob),
        Field("acct", .blob), Field("cdat", .timedate), Field("crtr", .uint32), Field("cusi", .sint32),
        Field("desc", .blob), Field("gena", .blob), Field("icmt", .blob), Field("invi", .sint32),
        Field("mdat", .timedate), Field("nega", .sint32), Field("prot", .blob), Field("scrp", .sint32),
        Field("svce", .blob), Field("type", .uint32),
    ]

    static let internetPasswordFields: [Field] = [
        Field(number: 7, attribute: "labl", .blob), Field(number: 8, attribute: "alis", .blob),
        Field("acct", .blob), Field("atyp", .blob), Field("cdat", .timedate), Field("crtr", .uint32),
        Field("cusi", .sint32), Field("desc", .blob), Field("icmt", .blob), Field("invi", .sint32),
        Field("mdat", .timedate), Field("nega", .sint32), Field("path", .blob), Field("port", .uint32),
        Field("prot", .blob), Field("ptcl", .uint32), Field("scrp", .sint32), Field("sdmn", .blob),
        Field("srvr", .blob), Field("type", .uint32),
    ]

    /// The lines for one item (each ending in a newline).
    static func render(_ attributes: [String: Any], kind: PasswordKind, keychain: URL) -> String {
        var text = "keychain: " + SecurityFormat.buffer(Array(keychain.path.utf8)) + "\n"
        // macOS prints the keychain file's format version; 512 is what current macOS shows.
        text += "version: 512\n"
        text += "class: " + SecurityFormat.buffer(Array(kind.classCode.utf8)) + "\n"
        text += "attributes:\n"
        let fields = kind == .generic ? genericPasswordFields : internetPasswordFields
        for field in fields {
            text += "    " + SecurityFormat.uint32(field.tag) + "<" + field.format.rawValue + ">="
            text += value(attributes[field.attribute]) + "\n"
        }
        return text
    }

    /// One attribute value; `<NULL>` when absent or empty.
    static func value(_ raw: Any?) -> String {
        guard let raw, let bytes = bytes(raw), !bytes.isEmpty else { return "<NULL>" }
        return SecurityFormat.buffer(bytes)
    }

    /// The bytes `security` would print for a value: text as UTF-8, data as is, numbers as four
    /// big-endian bytes, dates in the keychain's time format.
    static func bytes(_ raw: Any) -> [UInt8]? {
        switch raw {
        case let string as String:
            return Array(string.utf8)
        case let data as Data:
            return Array(data)
        case let date as Date:
            return SecurityFormat.timeDateBytes(date)
        case let number as NSNumber:
            return SecurityFormat.bigEndianBytes(UInt32(truncatingIfNeeded: number.int64Value))
        default:
            return nil
        }
    }

    /// The `password: …` line `-g` prints on standard error.
    static func passwordLine(_ secret: [UInt8]) -> String {
        "password: " + SecurityFormat.buffer(secret) + "\n"
    }
}
