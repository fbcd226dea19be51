#if Sync  // built only with the Sync trait (Package.swift)
/// Text that came from the sync server (device names, the server's own error messages), made
/// safe to print: a name chosen by whoever controls the database must not be able to move the
/// cursor, erase lines or paint over a fingerprint the person is comparing.
package enum TerminalText {
    /// The longest field printed, in characters; longer ones are cut and end in "…".
    package static let fieldLimit = 64

    /// `text` with every control character (C0, DEL, C1) and every bidirectional override or
    /// isolate replaced by U+FFFD, cut to `limit` characters.
    package static func safe(_ text: String, limit: Int = fieldLimit) -> String {
        var out = String.UnicodeScalarView()
        var count = 0
        for scalar in text.unicodeScalars {
            if count == limit {
                out.append("…")
                break
            }
            out.append(isUnsafe(scalar) ? "\u{FFFD}" : scalar)
            count += 1
        }
        return String(out)
    }

    /// A message of several lines: each line made safe, line breaks kept, the whole bounded.
    package static func safeLines(_ text: String, limit: Int = 4096) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { safe(String($0), limit: limit) }.joined(separator: "\n")
    }

    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        // Bidirectional embeddings, overrides and isolates reorder what follows them on screen.
        case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: return true
        default: return false
        }
    }
}
#endif
