// Apple's misspelled or retired names for codes that also have a correct one. They name no number
// of their own, so they are not in scripts/status-codes.tsv; each points at the static it means.

extension KeychainError {
    /// Apple's deprecated spelling of ``diskFull``.
    @available(*, deprecated, renamed: "diskFull")
    public static let dskFull = diskFull
    /// Apple's misspelled name for ``invalidCRLAuthority``.
    @available(*, deprecated, renamed: "invalidCRLAuthority")
    public static let invaldCRLAuthority = invalidCRLAuthority
    /// Apple's misspelled name for ``invalidTupleCredentials``.
    @available(*, deprecated, renamed: "invalidTupleCredentials")
    public static let invalidTupleCredendtials = invalidTupleCredentials
}
