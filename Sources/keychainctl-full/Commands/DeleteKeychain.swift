import ArgumentParser
import Foundation
import KeychainServices
import KeychainStore

/// `delete-keychain`: removes keychain files.
struct DeleteKeychain: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete-keychain",
        abstract: "Delete keychains.",
        discussion: """
            Removes each keychain file together with its SQLite journal files. The items in it \
            are gone for good. A missing keychain exits 50 (errSecNoSuchKeychain). The keychain \
            must be named: keychainctl never deletes the default keychain by omission.
            """)

    @OptionGroup var location: KeychainOption

    @Argument(help: ArgumentHelp("The keychains to delete (instead of --keychain).", valueName: "keychain"))
    var keychains: [String] = []

    func validate() throws {
        try location.validate(positional: keychains, allowsSeveral: true)
        if location.named(keychains).isEmpty { throw ValidationError("Name the keychain to delete.") }
    }

    func run() throws {
        for target in KeychainSession.targets(location.named(keychains)) {
            let path = target.url.path
            let context = "SecKeychainDelete \(path)"
            try KeychainSession.refuseWhenServed(context)
            guard FileManager.default.fileExists(atPath: path) else {
                throw CommandFailure.status(errSecNoSuchKeychain, context)
            }
            // Its keys leave the kernel keyring with it; a file that no longer opens (damaged,
            // another device key) is deleted all the same.
            let file = KeychainSession.close(target.url) ?? (try? KeychainFile.open(at: target.url, create: false))
            do {
                try KeychainFile.deleteKeychain(at: target.url, open: file)
            } catch {
                throw CommandFailure.status(errSecIO, context)
            }
        }
    }
}
