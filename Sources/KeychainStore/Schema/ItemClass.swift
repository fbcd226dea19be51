/// The item classes that have a table. Identities (`idnt`) are a join of certificates and keys.
package enum ItemClass: String, Sendable, CaseIterable, Hashable {
    case genericPassword = "genp"
    case internetPassword = "inet"
    case certificate = "cert"
    case key = "keys"

    /// The class named by Apple's four-letter code, or nil.
    package init?(code: String) { self.init(rawValue: code) }

    /// Apple's four-letter code, which is also the table name and the persistent-reference prefix.
    package var code: String { rawValue }

    /// Schema of this class.
    package var schema: ItemSchema { ItemSchema.of(self) }
}
