import Foundation
import KeychainctlCommandLine

extension CommandLinePasswords {
    /// `text` (a parser's message, which may quote an argument) with every password of
    /// `arguments` replaced by ``mask``.
    static func scrub(_ text: String, arguments: [String]) -> String {
        // Longest first, so a password that contains another is replaced whole.
        scan(arguments).passwords.filter { !$0.isEmpty }.sorted { $0.count > $1.count }
            .reduce(text) { $0.replacingOccurrences(of: $1, with: mask) }
    }
}
