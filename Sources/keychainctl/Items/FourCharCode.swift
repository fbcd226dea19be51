/// A four-character code such as a creator (`-c`), type (`-C`), protocol (`-r`) or
/// authentication type (`-t`).
///
/// `security` packs the four characters into a 32-bit number, first character in the high byte
/// ("note" is 0x6E6F7465); creator and type are stored that way, as numbers, which is also what
/// `kSecAttrCreator` and `kSecAttrType` hold. Protocol and authentication type are stored as the
/// four-character strings the `kSecAttrProtocol…` and `kSecAttrAuthenticationType…` constants
/// are ("htps", "dflt"), so items added here match items added through the API.
struct FourCharCode: Sendable, Equatable {
    let text: String

    /// Nil unless `text` is exactly four bytes of ASCII.
    init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 4, bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        self.text = text
    }

    /// The packed number, first character in the high byte.
    var number: UInt32 {
        text.utf8.reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// The error `security` gives for a code of the wrong length, with its suggestion for a
    /// three-letter code ("ftp" should be "ftp ").
    static func failure(option: String, value: String) -> CommandFailure {
        let hint = value.utf8.count == 3 ? "Try \"\(value) \" instead of \"\(value)\"." : "Give exactly four ASCII characters, e.g. \"htps\"."
        return .general("\(option) \(value)", "four-character codes must be exactly 4 characters long.", hint: hint)
    }
}
