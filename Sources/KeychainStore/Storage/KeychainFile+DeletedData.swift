#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension KeychainFile {
    /// Whether deleting `row` is followed by emptying the WAL (``State/eraseDeletedFromWAL()``):
    /// for the items whose access control asks for more than an unlocked keychain, those whose
    /// secret needs authentication (as their sealed attributes say) and passcode-only (`akpu`)
    /// ones.
    ///
    /// Emptying the WAL after every delete made deletes more than twice as slow
    /// (Benchmarks/notes/2026-12-02-figures-from-source-comments.md), and `ak` is the
    /// default class of every password, so the other items leave their old copies in the WAL
    /// until SQLite's next checkpoint (every 1,000 pages written) or until the last connection
    /// closes. Those copies are sealed like the live items, so reading them takes the same keys.
    static func deletionIsErasedFromWAL(_ row: MatchedRow) -> Bool {
        row.needsAuthentication || row.protection == .whenPasscodeSetThisDeviceOnly
    }

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
