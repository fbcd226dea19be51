import KeychainStore

/// The keys of a password prompt, one byte at a time, with the terminal in raw mode: what each
/// does to the line being typed, and which ones end it.
///
/// - Enter (CR or LF) ends the line; a line longer than ``SecretBuffer/capacity`` is
///   ``TerminalPasswordReader/Outcome/tooLong`` rather than cut short.
/// - Backspace (DEL or Ctrl-H) removes the last character, all of its UTF-8 bytes.
/// - Ctrl-U empties the line.
/// - Ctrl-C cancels.
/// - Ctrl-D on an empty line is the end of input; elsewhere in a line it does nothing, as at a
///   shell prompt.
/// - Other control keys (Ctrl-A, Escape) are dropped: they are not part of a password. Tab is
///   kept. An arrow key loses only the Escape that starts its sequence; the rest reads as text.
///
/// Separate from the terminal so the rules can be tested byte by byte.
package struct PasswordLineEditor: ~Copyable {
    private var typed = SecretBuffer()
    /// A byte did not fit; the line is refused when it ends (Ctrl-U starts afresh).
    private var overflowed = false

    package init() {}

    /// Applies one key; returns the outcome once the line is over, nil while it goes on.
    package mutating func take(_ byte: UInt8) -> TerminalPasswordReader.Outcome? {
        switch byte {
        case 0x03:
            return .cancelled
        case 0x04:
            return typed.isEmpty && !overflowed ? .endOfInput : nil
        case 0x0A, 0x0D:
            return overflowed ? .tooLong : .line(typed.bytes())
        case 0x7F, 0x08:
            removeLastCharacter()
        case 0x15:
            typed.removeAll()
            overflowed = false
        case 0x00..<0x20 where byte != 0x09:
            break
        default:
            if !typed.append(byte) { overflowed = true }
        }
        return nil
    }

    /// Removes continuation bytes (10xxxxxx) up to and including the byte that starts the
    /// character, so no half character is left behind.
    private mutating func removeLastCharacter() {
        while let last = typed.last {
            typed.removeLast()
            if last & 0xC0 != 0x80 { break }
        }
    }
}
