import Foundation
import KeychainServices
import KeychainStore

/// Chooses and opens the keychain a subcommand works on.
///
/// The default keychain is the one every library call of this user uses
/// (``KeychainPaths/defaultKeychain(environment:)``: `$SWIFT_KEYCHAIN_PATH`, else the XDG data
/// folder) and is created on first use. A keychain named on the command line must already exist
/// (only `create-keychain` makes new ones), so that a mistyped path is an error rather than a new,
/// empty keychain.
enum KeychainSession {
    /// A keychain to open: its file and whether the user named it.
    struct Target: Sendable {
        let url: URL
        let named: Bool

        /// What to append to a suggested command so that it acts on this keychain: nothing for
        /// the default keychain, else a space and the path, quoted for the shell when needed.
        var commandArgument: String {
            named ? " " + ShellQuoting.quote(url.path) : ""
        }
    }

    /// The keychains `names` refer to, or the default keychain when there are none.
    static func targets(_ names: [String]) -> [Target] {
        if names.isEmpty { return [Target(url: KeychainPaths.defaultKeychain(), named: false)] }
        return names.map { Target(url: KeychainNames.fileToOpen($0), named: true) }
    }

    /// The files `create-keychain` makes for `names` (see ``KeychainNames``).
    static func targetsToCreate(_ names: [String]) -> [Target] {
        names.map { Target(url: KeychainNames.fileToCreate($0), named: true) }
    }

    /// Every keychain of this user, for `lock-keychain -a`: each `*.keychain-db` in the keychains
    /// folder, and the default keychain wherever `SWIFT_KEYCHAIN_PATH` puts it. Only files that
    /// exist: locking all must not create the default keychain.
    static func allExisting() -> [Target] {
        var seen = Set<String>()
        var result: [Target] = []
        let defaultURL = KeychainPaths.defaultKeychain()
        for url in [defaultURL] + KeychainNames.keychainsInFolder() {
            let key = url.standardizedFileURL.path
            guard FileManager.default.fileExists(atPath: key), seen.insert(key).inserted else { continue }
            result.append(Target(url: url, named: url != defaultURL))
        }
        return result
    }

    /// Keychains this process has opened, by path. Interactive mode runs many commands in one
    /// process; reusing the open keychain keeps what an earlier command did to it in memory
    /// (an `unlock-keychain` followed by `find-generic-password` works, as in `security -i`).
    private static let opened = Locked<[String: KeychainFile]>([:])

    /// The keeper's socket when this environment's keychain is served (`SWIFT_KEYCHAIN_KEEPER`,
    /// ``KeychainKeeper``), nil when keychainctl opens files itself; a value that names no
    /// keeper is an error, never a fall-back to the file.
    static func servedSocket() throws(CommandFailure) -> String? {
        do {
            return try KeychainKeeper.fromEnvironment().socketPath
        } catch {
            throw .engine(error, KeychainKeeper.environmentVariable)
        }
    }

    /// What a user does to work on the file after all.
    static let embeddedHint = "Served, keychainctl runs the password commands, dump-keychain, lock-keychain, unlock-keychain and show-keychain-info through the keeper and never opens the file; run it with \(KeychainKeeper.environmentVariable)=embedded to work on a keychain file."

    /// Refuses to open a keychain file in a served environment: the keeper holds the keychain,
    /// and a command that opened the file would work on another copy, or on none.
    static func refuseWhenServed(_ context: String) throws(CommandFailure) {
        guard let socket = try servedSocket() else { return }
        throw CommandFailure(status: errSecNotAvailable, context: context,
                             message: "This command opens the keychain file, and this environment's keychain is served by keychaind at \(socket).",
                             hint: embeddedHint)
    }

    /// Opens `target`, creating it only when it is the default keychain.
    static func open(_ target: Target) throws(CommandFailure) -> KeychainFile {
        try refuseWhenServed("SecKeychainOpen \(target.url.path)")
        let key = target.url.standardizedFileURL.path
        if let file = opened.withLock({ $0[key] }), FileManager.default.fileExists(atPath: key) { return file }
        do {
            let file = try KeychainFile.open(at: target.url, create: !target.named)
            opened.withLock { $0[key] = file }
            return file
        } catch {
            throw .engine(error, "SecKeychainOpen \(target.url.path)", keychain: target)
        }
    }

    /// Creates a new keychain file at `url` (which must not exist) and keeps it open.
    static func create(_ url: URL, context: String) throws(CommandFailure) -> KeychainFile {
        try refuseWhenServed(context)
        do {
            let file = try KeychainFile.open(at: url, create: true)
            opened.withLock { $0[url.standardizedFileURL.path] = file }
            return file
        } catch {
            throw .engine(error, context)
        }
    }

    /// Forgets an open keychain (it is being deleted) and returns it, if it was open.
    @discardableResult
    static func close(_ url: URL) -> KeychainFile? {
        opened.withLock { $0.removeValue(forKey: url.standardizedFileURL.path) }
    }

    /// Makes `file` the keychain this process's SecItem calls use, as an administrator that sees
    /// every access group (like macOS `security`), or only `accessGroup` when one is given.
    static func useForItems(_ file: KeychainFile, accessGroup: String?) {
        KeychainContext.setProcessDefault(KeychainContext(file: file, identity: identity(accessGroup: accessGroup)))
    }

    /// Who keychainctl is to the keychain: an administrator that sees every access group, or
    /// only `accessGroup` when one is given.
    static func identity(accessGroup: String?) -> ClientIdentity {
        accessGroup.map { ClientIdentity(accessGroups: [$0]) } ?? .administrator()
    }

    /// Opens `target` and makes it the SecItem keychain of this process. A locked keychain is
    /// offered an unlock prompt first when someone is at a terminal to answer it, as macOS's
    /// `security` offers its unlock dialog; a script (standard input not a terminal) gets
    /// errSecInteractionNotAllowed from the item call instead, and its standard input is not read.
    static func openForItems(_ target: Target, accessGroup: String?) throws(CommandFailure) -> KeychainFile {
        let file = try open(target)
        if file.isLocked, Console.inputIsTerminal {
            try KeychainAdministration.unlockIfNeeded(file, path: target.url.path)
        }
        useForItems(file, accessGroup: accessGroup)
        return file
    }
}
