/// A primitive's refusal: what kind of input it was, and a reason in our words (never key
/// material or secret bytes). KeychainServices turns it into its own status codes.
package struct PrimitiveError: Error, Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        /// An input the primitive cannot take: a wrong length, a value out of range, a padding
        /// that does not check, a tag that does not match.
        case parameter
        /// A key whose numbers cannot be read.
        case unreadableKey
    }

    package let kind: Kind
    package let reason: String

    package init(_ kind: Kind, _ reason: String) {
        self.kind = kind
        self.reason = reason
    }

    static func parameter(_ reason: String) -> PrimitiveError { PrimitiveError(.parameter, reason) }
}
