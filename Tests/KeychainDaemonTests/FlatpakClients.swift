import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Clients of a ``DaemonSandbox`` run in a fresh root made by bubblewrap, as Flatpak runs an app:
/// `/usr` and `/etc` of the host, read-only, the sandbox's home (where the bus listens) bound in,
/// and a `/.flatpak-info` written as Flatpak writes it. keychaind reads that file through
/// /proc/PID/root, as it would read Flatpak's own.
extension DaemonSandbox {
    /// Whether bubblewrap is there to make such roots (scripts/install-system-packages.sh).
    static var canMakeSandboxes: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/bwrap") }

    /// A `.flatpak-info` of the app `appID`, as Flatpak writes one.
    static func flatpakInfo(_ appID: String) -> String {
        "[Application]\nname=\(appID)\nruntime=runtime/org.example.Platform/x86_64/1\n\n[Instance]\ninstance-id=1\n"
    }

    /// Runs `executable` in a bubblewrap root whose `/.flatpak-info` holds `info`, for at most
    /// 60 s (libsecret waits for a prompt without a limit). `SECRET_BACKEND=service`: libsecret
    /// in a Flatpak would otherwise use the portal's file backend rather than the Secret Service.
    @discardableResult
    func sandboxed(info: String, _ executable: String, _ arguments: [String], stdin: String = "",
                   extraBwrapArguments: [String] = []) throws -> ClientResult {
        let infoFile = home.appendingPathComponent("flatpak-info-\(UUID().uuidString)")
        try Data(info.utf8).write(to: infoFile)
        defer { try? FileManager.default.removeItem(at: infoFile) }
        let root = ["--tmpfs", "/", "--ro-bind", "/usr", "/usr", "--ro-bind", "/etc", "/etc",
                    "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64", "--symlink", "usr/bin", "/bin",
                    "--proc", "/proc", "--dev", "/dev", "--bind", home.path, home.path,
                    "--ro-bind", infoFile.path, "/.flatpak-info"] + extraBwrapArguments
        return try run("/usr/bin/timeout", ["--kill-after=5", "60", "/usr/bin/bwrap"] + root + ["--", executable] + arguments,
                       stdin: stdin, environment: ["SECRET_BACKEND": "service"])
    }

    /// secret-tool run as the Flatpak app `appID`.
    @discardableResult
    func secretTool(app appID: String, _ arguments: [String], stdin: String = "") throws -> ClientResult {
        try sandboxed(info: Self.flatpakInfo(appID), "/usr/bin/secret-tool", arguments, stdin: stdin)
    }

    /// Writes a caller policy rule into this sandbox user's folder (docs/isolation.md), which
    /// keychaind reads for each new connection.
    func writePolicyRule(_ name: String, _ rule: String) throws {
        let folder = URL(fileURLWithPath: environment["XDG_CONFIG_HOME"]!).appendingPathComponent("swift-keychain/apps.d")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // Created with mode 0600 before anything is written: a rule must not be writable by others.
        let file = folder.appendingPathComponent(name)
        _ = FileManager.default.createFile(atPath: file.path, contents: Data(rule.utf8), attributes: [.posixPermissions: 0o600])
    }
}
