import KeychainStore
import KeychainTerminal
import Testing

/// The keys of a terminal password prompt, byte by byte: the rules keychainctl and the terminal
/// authenticator share (the terminal itself is exercised under tmux by the end-to-end tests).
@Suite struct PasswordLineEditorTests {
    /// Feeds `keys` to a fresh editor and returns the outcome of the first key that ends the line.
    static func outcome(of keys: [UInt8]) -> TerminalPasswordReader.Outcome? {
        var editor = PasswordLineEditor()
        for key in keys {
            if let outcome = editor.take(key) { return outcome }
        }
        return nil
    }

    static func line(_ text: String) -> TerminalPasswordReader.Outcome { .line(Array(text.utf8)) }

    static let backspace: UInt8 = 0x7F, controlH: UInt8 = 0x08, controlU: UInt8 = 0x15
    static let controlC: UInt8 = 0x03, controlD: UInt8 = 0x04, enter: UInt8 = 0x0D, lineFeed: UInt8 = 0x0A

    @Test("Enter (CR or LF) ends the line, which does not include it")
    func enterEndsTheLine() {
        #expect(Self.outcome(of: Array("pass".utf8) + [Self.enter, 0x61]) == Self.line("pass"))
        #expect(Self.outcome(of: Array("pass".utf8) + [Self.lineFeed]) == Self.line("pass"))
        #expect(Self.outcome(of: [Self.enter]) == Self.line(""))
    }

    @Test("Backspace (DEL or Ctrl-H) removes one whole character, UTF-8 bytes and all")
    func backspace() {
        #expect(Self.outcome(of: Array("passx".utf8) + [Self.backspace, Self.enter]) == Self.line("pass"))
        #expect(Self.outcome(of: Array("passx".utf8) + [Self.controlH, Self.enter]) == Self.line("pass"))
        #expect(Self.outcome(of: Array("pasé".utf8) + [Self.backspace, Self.enter]) == Self.line("pas"))
        #expect(Self.outcome(of: Array("p🔑".utf8) + [Self.backspace, Self.enter]) == Self.line("p"))
        #expect(Self.outcome(of: [Self.backspace, Self.backspace] + Array("ok".utf8) + [Self.enter]) == Self.line("ok"))
    }

    @Test("Ctrl-U empties the line")
    func controlU() {
        #expect(Self.outcome(of: Array("wrong".utf8) + [Self.controlU] + Array("right".utf8) + [Self.enter]) == Self.line("right"))
    }

    @Test("Ctrl-C cancels, with or without something typed")
    func controlC() {
        #expect(Self.outcome(of: [Self.controlC]) == .cancelled)
        #expect(Self.outcome(of: Array("half".utf8) + [Self.controlC, Self.enter]) == .cancelled)
    }

    @Test("Ctrl-D ends the input on an empty line (also one Ctrl-U emptied) and does nothing after a character")
    func controlD() {
        #expect(Self.outcome(of: [Self.controlD]) == .endOfInput)
        #expect(Self.outcome(of: Array("ab".utf8) + [Self.controlU, Self.controlD]) == .endOfInput)
        #expect(Self.outcome(of: Array("ab".utf8) + [Self.controlD, Self.enter]) == Self.line("ab"))
    }

    @Test("Other control keys are dropped; Tab is kept")
    func otherControlKeys() {
        let escape: [UInt8] = [0x1B]
        #expect(Self.outcome(of: [0x01] + Array("a".utf8) + escape + [0x09, 0x00, Self.enter]) == Self.line("a\t"))
    }

    @Test("A line longer than the buffer is refused when it ends, not cut short; Ctrl-U starts afresh")
    func tooLong() {
        let full = [UInt8](repeating: 0x61, count: SecretBuffer.capacity)
        #expect(Self.outcome(of: full + [Self.enter]) == .line(full))
        #expect(Self.outcome(of: full + [0x62, Self.enter]) == .tooLong)
        #expect(Self.outcome(of: full + [0x62, Self.backspace, Self.enter]) == .tooLong)
        #expect(Self.outcome(of: full + [0x62, Self.controlU] + Array("ok".utf8) + [Self.enter]) == Self.line("ok"))
    }

    @Test("An outcome's description never shows the line")
    func redacted() {
        #expect(!"\(Self.line("hunter2"))".contains("hunter2"))
    }

    @Test("A prompt shows control characters as ?, keeping line feeds and tabs")
    func printablePrompt() {
        #expect(TerminalPasswordReader.printable("Read \u{1B}[2Jthe token\u{07}") == "Read ?[2Jthe token?")
        #expect(TerminalPasswordReader.printable("two\nlines\tand \u{9B}C1") == "two\nlines\tand ?C1")
    }
}
