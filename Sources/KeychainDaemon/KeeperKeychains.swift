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
            for folder in [layout.folder.deletingLastPathComponent(), layout.folder] {
                if mkdir(folder.path, 0o700) != 0 && errno != EEXIST {
                    throw KeychainStoreError(status: SecStatus.notAvailable, reason: "cannot create \(folder.path): \(String(cString: strerror(errno)))")
                }
            }
            let deviceKey = try DeviceKey.load(from: layout.deviceKey, create: true)
            let file = try KeychainFile.open(at: layout.keychain, deviceKey: deviceKey, create: true)
            opened[uid] = file
            return file
        }
    }
}
