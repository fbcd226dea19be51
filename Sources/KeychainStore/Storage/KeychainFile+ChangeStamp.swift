internal import CSQLite

/// What a keychain file held at one moment, as far as a reader that remembers something it read
/// needs to know: equal stamps mean that no item changed (in this process or any other) and that
/// no protection class was locked or unlocked in between.
///
/// The Secret Service daemon uses it to hand out a secret it read one call earlier (libsecret
/// asks for an item's secret right after finding it) without reading it again, and only while
/// nothing could have made that answer stale.
package struct KeychainChangeStamp: Equatable, Sendable {
    /// SQLite's `data_version`: moves when another connection commits.
    package let otherConnections: Int64
    /// Rows this connection changed since it was opened (`sqlite3_total_changes64`).
    let thisConnection: Int64
    /// The protection classes whose keys are in memory, one bit each.
    let openClasses: UInt64
    /// The keybag's generation: a new password or new keys.
    let keybagGeneration: UInt64
}

extension KeychainFile.State {
    /// The stamp of what this state holds now; only meaningful right after `refreshLockState`
    /// (which reads `data_version`), as ``KeychainFile/withState(_:)`` does.
    var changeStamp: KeychainChangeStamp {
        var classes: UInt64 = 0
        for protection in ProtectionClass.allCases where keybag.classKeys[protection] != nil {
            classes |= 1 << UInt64(protection.rawValue)
        }
        return KeychainChangeStamp(otherConnections: unlock.dataVersion ?? -1, thisConnection: db.totalChanges,
                                   openClasses: classes, keybagGeneration: keybag.record.generation)
    }
}

extension KeychainFile {
    /// The file's stamp now (after taking in what other processes changed, as every call does).
    package func changeStamp() throws(KeychainStoreError) -> KeychainChangeStamp {
        try withState { state throws(KeychainStoreError) in state.changeStamp }
    }
}

extension SQLiteConnection {
    /// Rows inserted, updated or deleted through this connection since it opened.
    var totalChanges: Int64 { sqlite3_total_changes64(handle) }
}
