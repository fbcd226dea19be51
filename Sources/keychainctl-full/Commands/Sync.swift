#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser

/// `keychainctl sync …`: runs the `keychain-sync` executable with the same arguments, so that
/// the PostgreSQL client and SwiftNIO it needs are never loaded by keychainctl itself
/// (docs/sync.md).
struct Sync: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Share synchronizable items with other machines through PostgreSQL (join, approve, now, watch, status, remove-device, leave).",
        discussion: "Runs keychain-sync (found beside keychainctl, else on PATH) with these arguments; 'keychainctl sync --help' shows its own help.")

    @Argument(parsing: .captureForPassthrough, help: "The sync subcommand and its arguments.")
    var arguments: [String] = []

    /// The executable's name; it lives in one place.
    static let executableName = "keychain-sync"

    func run() throws {
        // keychain-sync opens the keychain file; the keeper holds it when served (server-setup
        // only prints SQL).
        if arguments.first != "server-setup" { try KeychainSession.refuseWhenServed("sync") }
        guard let path = Sync.locate() else {
            throw CommandFailure.general("sync", "\(Sync.executableName) was not found beside keychainctl or on PATH", hint: "install it next to keychainctl (swift build --traits Sync --product keychain-sync)")
        }
        let argv = [path] + arguments
        var cArguments = argv.map { strdup($0) } + [nil]
        execv(path, &cArguments)
        let reason = String(cString: strerror(errno))
        for pointer in cArguments { free(pointer) }
        throw CommandFailure.general("sync", "cannot run \(path): \(reason)")
    }

    /// keychain-sync beside this executable, else the first on PATH.
    static func locate() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if count > 0 {
            let me = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if let slash = me.lastIndex(of: "/") {
                let candidate = String(me[..<slash]) + "/" + executableName
                if access(candidate, X_OK) == 0 { return candidate }
            }
        }
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = folder + "/" + executableName
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}
