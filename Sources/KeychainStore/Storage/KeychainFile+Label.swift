#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A name for the keychain chosen by its user, kept in the file itself (plain, like the file's
/// name: it is shown while the keychain is locked), so that it travels with the file. The
/// Secret Service daemon shows it as the collection's `Label`.
extension KeychainFile {
    /// The `settings` row that holds the label.
    static let labelSetting = "label"
    /// Longer labels are refused: a label is a name, not a store.
    package static let labelLimit = 1024

    /// The keychain's label, or nil when none was set (or it cannot be read).
    package var label: String? {
        guard let stored = try? withState({ state throws(KeychainStoreError) in try Self.setting(Self.labelSetting, state.db) }) else {
            return nil
        }
        return String(data: stored, encoding: .utf8)
    }

    /// Sets the keychain's label; an empty label removes it.
    /// - Throws: `errSecParam` for a label over ``labelLimit`` bytes.
    package func setLabel(_ label: String) throws(KeychainStoreError) {
        guard label.utf8.count <= Self.labelLimit else { throw .parameter("a keychain's label is at most \(Self.labelLimit) bytes") }
        try withState { state throws(KeychainStoreError) in
            try state.db.transaction(write: true) { () throws(KeychainStoreError) in
                if label.isEmpty {
                    try state.db.statement("DELETE FROM settings WHERE name = ?").run([.text(Self.labelSetting)])
                } else {
                    try state.putSetting(Self.labelSetting, Data(label.utf8))
                }
            }
        }
    }
}
