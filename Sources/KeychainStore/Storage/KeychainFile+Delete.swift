#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

extension KeychainFile {
    /// The files a keychain is made of: the database and SQLite's journals beside it.
    package static func files(of keychain: URL) -> [String] {
        let path = keychain.path
        return [path, path + "-wal", path + "-shm", path + "-journal"]
    }

    /// Deletes a keychain: its keys leave the kernel keyring (`open`, the keychain opened, if
    /// it could be: a damaged file is deleted all the same), then its files go. What both
    /// `keychainctl delete-keychain` and the Secret Service's `Collection.Delete` do.
    /// - Throws: `errSecIO` when a file exists and cannot be removed.
    package static func deleteKeychain(at keychain: URL, open: KeychainFile?) throws(KeychainStoreError) {
        open?.forgetSharedUnlockState()
        for file in files(of: keychain) where FileManager.default.fileExists(atPath: file) {
            do {
                try FileManager.default.removeItem(atPath: file)
            } catch {
                throw .init(status: SecStatus.io, reason: "the keychain's file \(file) could not be removed")
            }
        }
    }
}
