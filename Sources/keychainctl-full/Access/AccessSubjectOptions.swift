import ArgumentParser
import Foundation
import KeychainCallerIdentity

/// `--system`: which policy folder a command works on (docs/isolation.md, "Policy files").
struct PolicyFolderOption: ParsableArguments {
    @Flag(name: .customLong("system"),
          help: "The system keychaind's folder, /etc/swift-keychain/apps.d (root's), instead of this user's ${XDG_CONFIG_HOME:-~/.config}/swift-keychain/apps.d.")
    var system = false

    /// The folder, or the failure that says why this user has none.
    func folder() throws(CommandFailure) -> PolicyFolder {
        if system { return .system }
        guard let folder = PolicyFolder.user(UInt32(geteuid()), environment: ProcessInfo.processInfo.environment) else {
            throw CommandFailure.general("apps.d", "this user has no policy folder: neither XDG_CONFIG_HOME nor HOME is an absolute path.")
        }
        return folder
    }
}

/// Who a grant or a revocation is for: exactly one of `--flatpak`, `--snap`, `--system-unit`,
/// `--executable` (with `--script` for an interpreter).
struct AccessSubjectOptions: ParsableArguments {
    @Option(name: .customLong("flatpak"), help: ArgumentHelp("A Flatpak app, by its app id.", valueName: "app-id"))
    var flatpak: String?

    @Option(name: .customLong("snap"), help: ArgumentHelp("A snap, by its name (instance name).", valueName: "name"))
    var snap: String?

    @Option(name: .customLong("system-unit"), help: ArgumentHelp("A system service, by its unit (name.service or name.scope).", valueName: "unit"))
    var systemUnit: String?

    @Option(name: .customLong("executable"),
            help: ArgumentHelp("A host program, by its executable (a name without a slash is looked up in $PATH).", valueName: "path"))
    var executable: String?

    @Option(name: .customLong("script"),
            help: ArgumentHelp("With --executable naming an interpreter: the script it must be running.", valueName: "path"))
    var script: String?

    func validate() throws {
        let named = [flatpak, snap, systemUnit, executable].compactMap { $0 }
        guard named.count == 1 else {
            throw ValidationError("Name exactly one of --flatpak, --snap, --system-unit, --executable.")
        }
        if script != nil && executable == nil { throw ValidationError("--script goes with --executable.") }
        if named[0].isEmpty || script?.isEmpty == true { throw ValidationError("An empty name or path names no one.") }
    }

    /// The subject, paths made absolute (not resolved: the rule is checked under the name given).
    var subject: AccessGrant.Subject {
        if let flatpak { return .flatpak(flatpak) }
        if let snap { return .snap(snap) }
        if let systemUnit { return .systemUnit(systemUnit) }
        return .executable(Self.absolute(executable!, searchingPath: true), script: script.map { Self.absolute($0, searchingPath: false) })
    }

    /// `path` as an absolute path: a name without a slash is found in $PATH as a shell would
    /// (an executable's only), anything else relative to the working folder.
    static func absolute(_ path: String, searchingPath: Bool) -> String {
        if path.hasPrefix("/") { return path }
        if searchingPath && !path.contains("/") {
            let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
            for folder in folders where folder.hasPrefix("/") {
                let candidate = folder + "/" + path
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        return FileManager.default.currentDirectoryPath + "/" + path
    }
}
