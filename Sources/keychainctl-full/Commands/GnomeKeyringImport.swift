import Foundation
import KeychainSecretService
import KeychainServices
import KeychainStore

/// `import --from gnome-keyring [file]`: the items of a GNOME keyring file, opened with its
/// password, stored as keychaind stores what Secret Service clients give it (``SecretItemShape``)
/// and merged as a backup's items are. All or nothing.
enum GnomeKeyringImport {
    static let wrongPasswordHint = "Give the keyring's own password, the one gnome-keyring unlocks it with (for the login keyring, usually your login password when the keyring was made), not a keychain password. Nothing was imported."
    static let maximumFileSize = 64 << 20
    static let unreadableHint = "Nothing was imported. gnome-keyring keeps its keyrings in ${XDG_DATA_HOME:-~/.local/share}/keyrings (libsecret's and oo7's format in keyrings/v1); give the file's path."

    static func run(file: String?, password: String?, target: KeychainSession.Target) throws(CommandFailure) {
        let context = "SecKeychainImport \(target.url.path)"
        let candidates = file.map { [URL(fileURLWithPath: $0)] } ?? GnomeKeyringFile.defaultPaths()
        let url = candidates.first { FileManager.default.fileExists(atPath: $0.path) } ?? candidates[0]
        // The file is read and checked before the password is asked for: typing it for a file
        // that is not a keyring wastes the user's time.
        // Keyrings are kilobytes; a file of gigabytes is not one, and is not read into memory.
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue ?? 0
        guard size <= maximumFileSize else {
            throw CommandFailure(status: errSecDecode, context: context,
                                 message: "The file \(url.path) is too large to be a keyring (over \(maximumFileSize >> 20) MiB).",
                                 hint: "Nothing was imported.")
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw CommandFailure(status: errSecIO, context: context, message: "The keyring file \(url.path) could not be read.",
                                 hint: unreadableHint)
        }
        let keyring: GnomeKeyringFile
        do {
            keyring = try GnomeKeyringFile(data)
        } catch {
            throw unreadable(error, url, context)
        }
        let keychain = try KeychainSession.open(target)
        var secret = try PasswordArgument.resolve(password ?? PasswordArgument.readMarker, prompt: "password for the keyring \(url.path): ",
                                                  confirmPrompt: nil, context: context)
        defer { SecretBuffer.wipe(&secret) }
        let items: [GnomeKeyringItem]
        do {
            items = try keyring.items(password: secret)
        } catch {
            throw unreadable(error, url, context)
        }
        let counts: KeychainFile.MergeCounts
        do {
            counts = try KeychainCollection(file: keychain, label: "login").importItems(items)
        } catch {
            throw CommandFailure.engine(error, context, keychain: target)
        }
        let imported = counts.added + counts.replaced
        var line = "\(imported) item\(imported == 1 ? "" : "s") imported (\(counts.added) added, \(counts.replaced) replaced)"
        if counts.kept > 0 {
            line += ", \(counts.kept) skipped (the keychain's item with the same key is as new or newer)"
        }
        Console.out(line + ".\n")
    }

    /// A keyring that does not open: a wrong password is errSecAuthFailed (exit 51, as for every
    /// refused password), anything else errSecDecode (exit 93, as for a damaged backup).
    private static func unreadable(_ error: GnomeKeyringFileError, _ url: URL, _ context: String) -> CommandFailure {
        switch error {
        case .wrongPassword:
            return CommandFailure(status: errSecAuthFailed, context: context,
                                  message: "The password does not open this keyring (\(url.path)).", hint: wrongPasswordHint)
        case .notAKeyring, .unsupportedVersion, .damaged:
            let sentence = error.description.capitalisedFirst
            return CommandFailure(status: errSecDecode, context: context, message: "\(sentence) (\(url.path)).",
                                  hint: "Nothing was imported.")
        }
    }
}
