#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// Where keychain files live.
package enum KeychainPaths {
    /// The environment variable that points a process at another keychain file.
    package static let keychainPathVariable = "SWIFT_KEYCHAIN_PATH"

    /// The default keychain for this process: `$SWIFT_KEYCHAIN_PATH` if set, otherwise
    /// `${XDG_DATA_HOME:-~/.local/share}/keychains/login.keychain-db`.
    package static func defaultKeychain(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let path = environment[keychainPathVariable], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return dataHome(environment: environment)
            .appendingPathComponent("keychains", isDirectory: true)
            .appendingPathComponent("login.keychain-db")
    }

    /// Where the sync state of the keychain at `keychain` lives (`<keychain>.sync`, beside it):
    /// the sync engine keeps it, keychaind watches it to know when a keychain joined a group.
    package static func syncState(forKeychain keychain: URL) -> URL {
        URL(fileURLWithPath: keychain.path + ".sync")
    }

    /// The note `keychainctl move-keychain-to-keeper` leaves where the keychain at `keychain`
    /// was (`<keychain>.moved-to-keeper`, naming the keeper): while it is there no new keychain
    /// is made at that path, so a program not yet switched over fails rather than keep new
    /// secrets in a file every process of the user can read.
    package static func movedMarker(forKeychain keychain: URL) -> URL {
        URL(fileURLWithPath: keychain.path + ".moved-to-keeper")
    }

    static func dataHome(environment: [String: String]) -> URL {
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") { return URL(fileURLWithPath: xdg, isDirectory: true) }
        return home(environment).appendingPathComponent(".local/share", isDirectory: true)
    }

    static func configHome(environment: [String: String]) -> URL {
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") { return URL(fileURLWithPath: xdg, isDirectory: true) }
        return home(environment).appendingPathComponent(".config", isDirectory: true)
    }

    private static func home(_ environment: [String: String]) -> URL {
        if let home = environment["HOME"], !home.isEmpty { return URL(fileURLWithPath: home, isDirectory: true) }
        return FileManager.default.homeDirectoryForCurrentUser
    }
}
