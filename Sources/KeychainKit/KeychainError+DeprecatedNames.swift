// Apple's retired names for codes that also have a correct one. They name no number of their own,
// so they are not in scripts/status-codes.tsv; each points at the static it means. (The statics for
// Apple's two misspelled CSSM names went with the statics they pointed at: no call of this
// package returns those codes, so KeychainKit names them only through KeychainError.names.)

extension KeychainError {
    /// Apple's deprecated spelling of ``diskFull``.
    @available(*, deprecated, renamed: "diskFull")
    public static let dskFull = diskFull
}
