internal import CSQLite

extension SQLiteConnection {
    /// Copies every page in the WAL into the main file and empties the WAL, waiting at most
    /// `milliseconds` for other connections; returns whether the WAL was emptied.
    ///
    /// `secure_delete` overwrites a deleted row in the newest copy of its page, but the WAL still
    /// holds the older copies, with the row, until SQLite reuses that part of the WAL (after a
    /// checkpoint) or removes the file (when the last connection closes). Emptying it here takes
    /// them off the disk now.
    ///
    /// Best effort: another process reading the keychain uses the WAL's pages, and they cannot be
    /// discarded under it. Then SQLite copies what it can and leaves the WAL as it is, and the old
    /// copies go at a later checkpoint. The wait is short, because a delete already committed and
    /// should not be held up by a reader.
    @discardableResult
    func checkpointEmptyingWAL(waitingAtMost milliseconds: Int32) -> Bool {
        // The usual timeout is put back afterwards; without knowing it, do nothing rather than
        // leave the connection with one that would fail other writes early.
        guard let usual = busyTimeout else { return false }
        sqlite3_busy_timeout(handle, milliseconds)
        defer { sqlite3_busy_timeout(handle, usual) }
        return sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_TRUNCATE, nil, nil) == SQLITE_OK
    }

    /// The connection's busy timeout in milliseconds, read with a statement of its own (not one
    /// of the cached ones, whose state belongs to the operation in progress).
    private var busyTimeout: Int32? {
        var raw: OpaquePointer?
        guard sqlite3_prepare_v2(handle, "PRAGMA busy_timeout", -1, &raw, nil) == SQLITE_OK, let raw else { return nil }
        defer { sqlite3_finalize(raw) }
        guard sqlite3_step(raw) == SQLITE_ROW else { return nil }
        return Int32(clamping: sqlite3_column_int64(raw, 0))
    }
}
