package import Foundation
package import KeychainStore
#if canImport(Glibc)
import Glibc
#endif

/// Which keychain a keeper holds for each user it serves.
package protocol KeeperKeychains: Sendable {
    /// The keychain of user `uid`; nil when that user has none and `create` is false, or when
    /// this keeper serves no keychain of that user. With `create`, a missing one is made
    /// (created on first use, as an embedded process creates its default keychain).
    func keychain(forUser uid: UInt32, create: Bool) throws(KeychainStoreError) -> KeychainFile?

    /// Takes in user `uid`'s keychain, moved from a file of theirs (``KeychainFile/install(_:at:deviceKeyURL:)``);
    /// `errSecDuplicateKeychain` when this keeper already holds one for them.
    func adopt(_ moved: MovedKeychain, forUser uid: UInt32) throws(KeychainStoreError)
    /// User `uid`'s keychain image and device key, to move out; nil when there is none.
    func release(forUser uid: UInt32) throws(KeychainStoreError) -> MovedKeychain?
    /// Deletes user `uid`'s keychain and device key; false when there was none.
    func forget(forUser uid: UInt32) throws(KeychainStoreError) -> Bool
}

extension KeeperKeychains {
    /// A keeper that holds the user's own file has nothing to move.
    package func adopt(_ moved: MovedKeychain, forUser uid: UInt32) throws(KeychainStoreError) { throw Self.holdsTheFile }
    package func release(forUser uid: UInt32) throws(KeychainStoreError) -> MovedKeychain? { throw Self.holdsTheFile }
    package func forget(forUser uid: UInt32) throws(KeychainStoreError) -> Bool { throw Self.holdsTheFile }

    private static var holdsTheFile: KeychainStoreError {
        KeychainStoreError(status: SecStatus.unimplemented, reason: "this keeper serves the user's own keychain file: there is nothing to move")
    }
}

/// A user's keeper (`keychaind --keeper`): the one login keychain it holds, for its own user.
package struct OneKeychain: KeeperKeychains {
    let file: KeychainFile

    package init(file: KeychainFile) { self.file = file }

    package func keychain(forUser uid: UInt32, create: Bool) throws(KeychainStoreError) -> KeychainFile? {
        uid == geteuid() ? file : nil
    }
}

/// The system keeper's keychains (`keychaind --system`): one login keychain per user, in
/// `STATE/users/UID/`, with its own device key beside it, in folders that only the keeper's
/// user can enter (docs/design-notes.md, "The system keeper"). A user's process cannot read
/// either file, whatever it can do in the user's home folder.
package final class SystemKeychains: KeeperKeychains {
    /// The files of one user's keychain.
    package struct Layout: Sendable {
        package let folder: URL
        package var keychain: URL { folder.appendingPathComponent("login.keychain-db") }
        package var deviceKey: URL { folder.appendingPathComponent("device-key") }
    }

    package let stateFolder: URL
    private let opened = Locked<[UInt32: KeychainFile]>([:])

    /// `stateFolder` must exist, be the keeper's own and not be reachable by others.
    package init(stateFolder: URL) {
        self.stateFolder = stateFolder
    }

    package func layout(forUser uid: UInt32) -> Layout {
        Layout(folder: stateFolder.appendingPathComponent("users").appendingPathComponent(String(uid)))
    }

    package func keychain(forUser uid: UInt32, create: Bool) throws(KeychainStoreError) -> KeychainFile? {
        // One open file per user for the keeper's life: every connection of the user shares
        // its unlock state, and the SQLite connection is made once.
        try opened.withLock { opened throws(KeychainStoreError) -> KeychainFile? in
            if let file = opened[uid] { return file }
            let layout = layout(forUser: uid)
            guard create || FileManager.default.fileExists(atPath: layout.keychain.path) else { return nil }
            try Self.makeFolders(layout)
            let deviceKey = try DeviceKey.load(from: layout.deviceKey, create: true)
            let file = try KeychainFile.open(at: layout.keychain, deviceKey: deviceKey, create: true)
            opened[uid] = file
            return file
        }
    }

    package func adopt(_ moved: MovedKeychain, forUser uid: UInt32) throws(KeychainStoreError) {
        try opened.withLock { opened throws(KeychainStoreError) in
            let layout = layout(forUser: uid)
            // One it holds already is never overwritten, unless it holds no item at all (one a
            // served call or a login's auto_create made before the move): replacing that loses
            // nothing.
            if opened[uid] != nil || FileManager.default.fileExists(atPath: layout.keychain.path) {
                let held: KeychainFile
                if let open = opened[uid] {
                    held = open
                } else {
                    held = try KeychainFile.open(at: layout.keychain, deviceKey: try DeviceKey.load(from: layout.deviceKey, create: false), create: false)
                }
                guard try held.holdsNoItems() else {
                    throw KeychainStoreError(status: SecStatus.duplicateKeychain, reason: "the keeper already holds a keychain with items for this user")
                }
                opened[uid] = nil
                try KeychainFile.deleteKeychain(at: layout.keychain, open: held)
            }
            try Self.makeFolders(layout)
            // A device key or sync state left behind by a keychain moved out earlier is not this one's.
            unlink(layout.deviceKey.path)
            unlink(KeychainPaths.syncState(forKeychain: layout.keychain).path)
            opened[uid] = try KeychainFile.install(moved, at: layout.keychain, deviceKeyURL: layout.deviceKey)
        }
    }

    package func release(forUser uid: UInt32) throws(KeychainStoreError) -> MovedKeychain? {
        guard let file = try keychain(forUser: uid, create: false) else { return nil }
        let layout = layout(forUser: uid)
        return try MovedKeychain.read(file, at: layout.keychain, deviceKeyURL: layout.deviceKey)
    }

    package func forget(forUser uid: UInt32) throws(KeychainStoreError) -> Bool {
        try opened.withLock { opened throws(KeychainStoreError) -> Bool in
            let layout = layout(forUser: uid)
            let held = opened.removeValue(forKey: uid)
            guard held != nil || FileManager.default.fileExists(atPath: layout.keychain.path) else { return false }
            try KeychainFile.deleteKeychain(at: layout.keychain, open: held)
            unlink(layout.deviceKey.path)
            unlink(KeychainPaths.syncState(forKeychain: layout.keychain).path)
            return true
        }
    }

    private static func makeFolders(_ layout: Layout) throws(KeychainStoreError) {
        for folder in [layout.folder.deletingLastPathComponent(), layout.folder] {
            if mkdir(folder.path, 0o700) != 0 && errno != EEXIST {
                throw KeychainStoreError(status: SecStatus.notAvailable, reason: "cannot create \(folder.path): \(String(cString: strerror(errno)))")
            }
        }
    }
}
