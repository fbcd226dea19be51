import Foundation

extension KeychainFile {
    /// Whether deleting `row` is followed by emptying the WAL (``State/eraseDeletedFromWAL()``):
    /// for the items that are meant to need more than the file and the device key to read. That
    /// is class A (`ak`, `aku`, `akpu`), whose keys a keychain password protects, and any item
    /// whose secret is sealed for authentication as well.
    ///
    /// Emptying the WAL after every delete made deletes about 2.5 times slower (on the test
    /// machine's disk, 200 deletes: about 350 µs each without, 800-900 µs with), so the other classes,
    /// which the device key alone opens, leave their old copies in the WAL until SQLite's next
    /// checkpoint or until the last connection closes. A copy of the file with the device key
    /// reads those items anyway.
    static func deletionIsErasedFromWAL(_ row: MatchedRow) -> Bool {
        passwordProtectedClasses.contains(row.protection) || isSealedForAuthentication(row.sealedSecret)
    }

    private static let passwordProtectedClasses: Set<ProtectionClass> = [
        .whenUnlocked, .whenUnlockedThisDeviceOnly, .whenPasscodeSetThisDeviceOnly,
    ]

    /// Whether a sealed secret is in any format but the plain one (its first byte, 1). Formats
    /// that need authentication to open (2 today) are all the others, so a format added later
    /// counts as protected here without a change.
    static func isSealedForAuthentication(_ sealedSecret: Data?) -> Bool {
        guard let format = sealedSecret?.first else { return false }
        return format != plainSecretFormat
    }

    private static let plainSecretFormat: UInt8 = 1
}

extension KeychainFile.State {
    /// Takes the copies of just-deleted rows out of the WAL, after a delete has committed.
    ///
    /// `secure_delete` zeroes a deleted row in the newest copy of its page, but the WAL keeps the
    /// earlier copies, sealed secret included, for as long as any connection has the keychain
    /// open: for a long-running service, indefinitely. Emptying the WAL leaves only the zeroed
    /// pages, in the main file. Best effort: while another process is reading, its pages of the
    /// WAL cannot go, and a later checkpoint takes them
    /// (``SQLiteConnection/checkpointEmptyingWAL(waitingAtMost:)``). The delete itself has
    /// succeeded either way, so nothing here can fail it.
    func eraseDeletedFromWAL() {
        db.checkpointEmptyingWAL(waitingAtMost: 100)
    }
}
