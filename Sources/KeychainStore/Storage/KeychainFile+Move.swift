#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A keychain on its way between holders (an embedded file and a keeper's folder), whole: the
/// file's bytes, its device key and its sync state travel unchanged, so its items, password,
/// access control, seals and sync membership arrive as they were (docs/design-notes.md,
/// "Moving a keychain in and out").
package struct MovedKeychain: Sendable, Equatable {
    /// The database image (``KeychainFile/snapshot()``).
    package var image: Data
    /// The device key the keychain's keybag is sealed under.
    package var deviceKey: Data
    /// The sync state file's bytes (``KeychainPaths/syncState(forKeychain:)``), nil when the
    /// keychain never joined a sync group. It is sealed under the device key, so it moves as is.
    package var syncState: Data?

    package init(image: Data, deviceKey: Data, syncState: Data?) {
        self.image = image
        self.deviceKey = deviceKey
        self.syncState = syncState
    }

    /// The keychain at `url` and what lies beside it, to move: its device key from
    /// `deviceKeyURL` and its sync state if it has one.
    package static func read(_ file: KeychainFile, at url: URL, deviceKeyURL: URL) throws(KeychainStoreError) -> MovedKeychain {
        let image = try file.snapshot()
        guard let deviceKey = try SecureFile.read(deviceKeyURL) else {
            throw KeychainStoreError(status: SecStatus.notAvailable, reason: "the device key at \(deviceKeyURL.path) is missing")
        }
        return MovedKeychain(image: image, deviceKey: deviceKey, syncState: try SecureFile.read(KeychainPaths.syncState(forKeychain: url)))
    }
}

extension KeychainFile {
    /// The keychain as one database image, consistent however many processes write to it.
    package func snapshot() throws(KeychainStoreError) -> Data {
        try withStateWithoutUse { state throws(KeychainStoreError) -> Data in
            guard let image = state.db.serializedImage() else { throw .allocate("the keychain could not be copied") }
            return image
        }
    }

    /// Writes a keychain moved here at `url`, which must not exist (nor its sync state), and its
    /// device key at `deviceKeyURL`: created when missing, and when present accepted only if it
    /// holds the same key (a device key is never replaced). Then opens it, which checks the file
    /// as every open does and that the device key opens its keybag. Whatever fails leaves
    /// nothing written behind.
    package static func install(_ moved: MovedKeychain, at url: URL, deviceKeyURL: URL) throws(KeychainStoreError) -> KeychainFile {
        let key = try DeviceKey(bytes: moved.deviceKey)
        let syncStateURL = KeychainPaths.syncState(forKeychain: url)
        var wroteDeviceKey = false
        if let existing = try SecureFile.read(deviceKeyURL) {
            guard existing == moved.deviceKey else {
                throw Self.alreadyThere("\(deviceKeyURL.path) holds another device key, which is never replaced; the keychain was sealed under its own")
            }
        } else {
            wroteDeviceKey = try SecureFile.createExclusively(deviceKeyURL, contents: moved.deviceKey) == .created
            guard wroteDeviceKey else { throw Self.alreadyThere("\(deviceKeyURL.path) appeared while the keychain was being moved") }
        }
        var wroteKeychain = false
        func removeWritten() {
            if wroteKeychain {
                for file in files(of: url) { unlink(file) }
                unlink(syncStateURL.path)
            }
            if wroteDeviceKey { unlink(deviceKeyURL.path) }
        }
        do throws(KeychainStoreError) {
            // A sync state left without its keychain would be taken for this one's.
            guard !FileManager.default.fileExists(atPath: syncStateURL.path) else { throw Self.alreadyThere("\(syncStateURL.path) already exists") }
            guard try SecureFile.createExclusively(url, contents: moved.image) == .created else { throw Self.alreadyThere("\(url.path) already exists") }
            wroteKeychain = true
            if let syncState = moved.syncState, try SecureFile.createExclusively(syncStateURL, contents: syncState) != .created {
                throw Self.alreadyThere("\(syncStateURL.path) appeared while the keychain was being moved")
            }
            return try KeychainFile.open(at: url, deviceKey: key, create: false)
        } catch {
            removeWritten()
            throw error
        }
    }

    /// Whether the keychain holds no item of any class (not even a tombstone): what a keeper may
    /// replace with a keychain moved in, losing nothing (docs/design-notes.md, "Moving a
    /// keychain in and out").
    package func holdsNoItems() throws(KeychainStoreError) -> Bool {
        try withStateWithoutUse { state throws(KeychainStoreError) -> Bool in
            for itemClass in ItemClass.allCases {
                let statement = try state.db.statement("SELECT EXISTS (SELECT 1 FROM \(itemClass.code))")
                _ = try statement.step()
                if statement.int64(0) != 0 { return false }
            }
            return true
        }
    }

    /// Leaves the note that the keychain at `url` now lives in the keeper `keeper` (as
    /// `SWIFT_KEYCHAIN_KEEPER` names it) (``KeychainPaths/movedMarker(forKeychain:)``).
    package static func markMovedToKeeper(_ url: URL, keeper: String) throws(KeychainStoreError) {
        let marker = KeychainPaths.movedMarker(forKeychain: url)
        unlink(marker.path)
        _ = try SecureFile.createExclusively(marker, contents: Data(keeper.utf8))
    }

    /// Removes that note, once the keychain is back.
    package static func clearMovedToKeeper(_ url: URL) {
        unlink(KeychainPaths.movedMarker(forKeychain: url).path)
    }

    /// `errSecNotAvailable` when a keychain is to be created at `url` but the one that was there
    /// moved into a keeper.
    static func refuseIfMovedToKeeper(_ url: URL) throws(KeychainStoreError) {
        let marker = KeychainPaths.movedMarker(forKeychain: url)
        guard let note = try? SecureFile.read(marker) else {
            // Any note refuses; the keeper is named when it can be read.
            guard FileManager.default.fileExists(atPath: marker.path) else { return }
            throw KeychainStoreError(status: SecStatus.notAvailable, reason: "the keychain at \(url.path) was moved into a keeper (\(marker.path))")
        }
        let keeper = String(decoding: note.prefix(4096), as: UTF8.self)
        throw KeychainStoreError(status: SecStatus.notAvailable, reason: """
            the keychain at \(url.path) was moved into the keeper \(keeper): run programs with \
            SWIFT_KEYCHAIN_KEEPER=\(keeper), or move it back (keychainctl move-keychain-from-keeper); \
            deleting \(marker.path) lets a new keychain be made here
            """)
    }

    /// `errSecDuplicateKeychain`: something of the keychain's is already where it would go.
    private static func alreadyThere(_ reason: String) -> KeychainStoreError {
        KeychainStoreError(status: SecStatus.duplicateKeychain, reason: reason)
    }
}
