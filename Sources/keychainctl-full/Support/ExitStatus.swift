import KeychainServices

/// The exit statuses of keychainctl. They follow macOS `security`, so that shell scripts written
/// for a Mac keep working: a failed keychain call exits with the low byte of its `OSStatus`
/// (errSecItemNotFound, -25300, exits 44), bad usage exits 2, any other failure exits 1.
/// The full table is in docs/keychainctl.md and in `keychainctl --help`.
enum ExitStatus {
    /// The command did what was asked.
    static let success: Int32 = 0
    /// A failure that has no `OSStatus`: an unreadable password, passwords that do not match,
    /// a malformed four-character code, an unknown command in interactive mode.
    static let failure: Int32 = 1
    /// The command line was wrong: unknown option, missing value, missing required option.
    static let usage: Int32 = 2

    /// The exit status for a failed keychain call: the low byte of the status, as `security`
    /// exits (its `main` returns the status and the kernel keeps the low eight bits).
    ///
    /// A status whose low byte is zero (a multiple of 256) would look like success; `security`
    /// has that flaw, keychainctl exits 1 instead.
    static func code(for status: OSStatus) -> Int32 {
        if status == errSecSuccess { return success }
        let low = Int32(UInt8(truncatingIfNeeded: status))
        return low == 0 ? failure : low
    }

    /// The exit statuses a script is most likely to test, with the failure class each stands
    /// for. Printed by `--help` and checked by the end-to-end tests, so the two cannot drift.
    static let documented: [(code: Int32, meaning: String)] = [
        (success, "success"),
        (failure, "failure without a keychain status (password input, four-character code)"),
        (usage, "bad usage (unknown option, missing value or required option)"),
        (code(for: errSecItemNotFound), "errSecItemNotFound: no item matched"),
        (code(for: errSecDuplicateItem), "errSecDuplicateItem: the item already exists (use -U to update)"),
        (code(for: errSecInteractionNotAllowed), "errSecInteractionNotAllowed: the keychain is locked"),
        (code(for: errSecAuthFailed), "errSecAuthFailed: wrong keychain password"),
        (code(for: errSecNoSuchKeychain), "errSecNoSuchKeychain: no keychain at that path"),
        (code(for: errSecDuplicateKeychain), "errSecDuplicateKeychain: a keychain already exists there"),
        (code(for: errSecIO), "errSecIO: reading or writing the keychain file failed"),
        (code(for: errSecParam), "errSecParam: a value was rejected by the keychain"),
        (code(for: errSecMissingEntitlement), "errSecMissingEntitlement: the access group is not held"),
        (code(for: BackupDestination.fileExistsStatus), "dupFNErr: export's output file already exists (--force replaces it)"),
        (code(for: errSecUserCanceled), "errSecUserCanceled: a password prompt was cancelled (Ctrl-C)"),
        (code(for: errSecUnimplemented), "errSecUnimplemented: not supported here (list-keychains -s, default-keychain -s)"),
    ]
}
