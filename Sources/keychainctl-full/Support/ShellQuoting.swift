/// Quotes paths for the commands hints suggest, so that a suggestion can be pasted into a
/// shell as it is even when the path holds a space.
enum ShellQuoting {
    static func quote(_ word: String) -> String {
        let plain = word.allSatisfy { $0.isLetter || $0.isNumber || "/._-+,:@%~".contains($0) }
        if plain && !word.isEmpty { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
