import Foundation
import KeychainTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// What a sandboxed app that was given the home folder (Flatpak's `--filesystem=home`) can do
/// to the user keeper's keychain without the Secret Service door: these tests record a limit
/// (SECURITY.md, "Limits of isolation"), so each asserts what the attack achieves today. A fix
/// (the system keeper) has to change them together with that statement.
///
/// The app runs as Flatpak runs one: bubblewrap started by an ordinary user (`nobody`, so
/// bubblewrap makes a user namespace, as it does for Flatpak), a fresh root holding `/usr`,
/// `/etc`, the Swift runtime, the built keychainctl as the app's own program and a written
/// `/.flatpak-info`; with or without the user's home folder bound in.
@Suite(.enabled(if: DaemonSandbox.canMakeSandboxes && OtherUser.canRun, "needs bubblewrap, root and setpriv"))
struct HomeFolderLimitTests {
    static let key = ["-a", "ann", "-s", "demo"]

    @Test func anAppGivenTheHomeFolderReadsAKeychainWithoutAPasswordByItself() throws {
        let user = try SandboxedUser()
        let added = try user.onHost(user.keychainctl, ["add-generic-password"] + Self.key + ["-w", "secret-in-the-file"])
        try #require(added.status == 0, "\(added)")

        let withHome = try user.inSandbox(withHome: true, SandboxedUser.app, ["find-generic-password"] + Self.key + ["-w"])
        #expect(withHome.status == 0 && withHome.stdout == "secret-in-the-file\n", "\(withHome)")

        let withoutHome = try user.inSandbox(withHome: false, SandboxedUser.app, ["find-generic-password"] + Self.key + ["-w"])
        #expect(withoutHome.status != 0, "\(withoutHome)")
        #expect(!withoutHome.stdout.contains("secret-in-the-file") && !withoutHome.stderr.contains("secret-in-the-file"))
    }

    /// With a keychain password, an unlocked keychain's class A keys are in the session keyring
    /// of the login that unlocked it. A sandbox started in that login has the same session
    /// keyring (bubblewrap's user namespace does not change it), so the app reads the item by
    /// opening the file itself. Each run here has a session keyring of its own (`keyctl
    /// session -`, as `pam_keyinit` gives a login), so the test process's own does not count.
    @Test func anAppGivenTheHomeFolderReadsAnUnlockedKeychainThroughTheSessionKeyring() throws {
        let user = try SandboxedUser()
        let keychain = user.home.appendingPathComponent("data/keychains/login.keychain-db").path
        #expect(try user.onHost(user.keychainctl, ["create-keychain", "-p", "Home-Pass-7", keychain]).status == 0)
        #expect(try user.onHost(user.keychainctl, ["add-generic-password"] + Self.key + ["-w", "secret-behind-the-password"]).status == 0)
        #expect(try user.onHost(user.keychainctl, ["lock-keychain", keychain]).status == 0)

        // One login: it unlocks, a host program reads, then the sandboxed app reads.
        let login = """
            printf '%s\\n' "$3" | "$1" unlock-keychain "$2" >/dev/null 2>&1 || echo 'unlock failed'
            echo "host: $("$1" find-generic-password -a ann -s demo -w 2>&1)"
            shift 3
            echo "sandbox: $("$@" 2>&1)"
            """
        let sandbox = user.sandboxCommand(withHome: true, SandboxedUser.app, ["find-generic-password"] + Self.key + ["-w"])
        let run = try user.onHost("/usr/bin/keyctl", ["session", "-", "/bin/sh", "-c", login, "sh", user.keychainctl, keychain, "Home-Pass-7"]
                                  + sandbox)
        #expect(run.stdout.contains("host: secret-behind-the-password\n"), "\(run)")
        #expect(run.stdout.contains("sandbox: secret-behind-the-password\n"), "\(run)")

        // The same sandbox started in another login finds the keychain locked, as a host program there would.
        let elsewhere = try user.onHost("/usr/bin/keyctl", ["session", "-"] + sandbox)
        #expect(elsewhere.status == 36 && !elsewhere.stdout.contains("secret-behind-the-password"), "\(elsewhere)")
    }

    /// The home folder holds keychaind's policy folder too: the app writes itself a rule, and
    /// the Secret Service door gives it the host's shared items from its next connection on.
    @Test func anAppGivenTheHomeFolderGrantsItselfTheSharedGroup() throws {
        let sandbox = try DaemonSandbox()
        let key = ["service", "demo", "username", "ann"]
        #expect(try sandbox.secretTool(["store", "--label=host password"] + key, stdin: "secret-of-host").status == 0)
        let app = "org.example.Thief"
        #expect(try sandbox.secretTool(app: app, ["lookup"] + key).stdout.isEmpty)

        let folder = sandbox.environment["XDG_CONFIG_HOME"]! + "/swift-keychain/apps.d"
        let wrote = try sandbox.sandboxed(info: DaemonSandbox.flatpakInfo(app), "/bin/sh", ["-c", """
            umask 077 && mkdir -p '\(folder)' && printf 'flatpak = \(app)\\nkeychain-access-groups = swift-keychain.shared\\n' > '\(folder)/thief.conf'
            """])
        try #require(wrote.status == 0, "\(wrote)")
        let stolen = try sandbox.secretTool(app: app, ["lookup"] + key)
        #expect(stolen.status == 0 && stolen.stdout == "secret-of-host", "\(stolen)\n\(sandbox.log)")
    }
}

/// A home folder owned by `nobody`, and programs run as `nobody` on the host or in a
/// bubblewrap sandbox (made without privileges, so in a user namespace).
final class SandboxedUser: Sendable {
    let home: URL
    let keychainctl: String
    /// Where the built programs are bound in the sandbox.
    static let app = "/app/bin/keychainctl"
    private let products: String
    private let runtime: String?
    private let info: URL

    init() throws {
        let ids = try #require(OtherUser.ids)
        home = FileManager.default.temporaryDirectory.appendingPathComponent("keychain-home-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        #expect(chown(home.path, ids.uid, ids.gid) == 0)
        keychainctl = try BuiltProduct.url("keychainctl").path
        products = URL(fileURLWithPath: keychainctl).deletingLastPathComponent().path
        runtime = Self.swiftRuntimeFolder()
        // Outside the home folder, so that the sandbox without it still has it.
        info = FileManager.default.temporaryDirectory.appendingPathComponent("flatpak-info-\(UUID().uuidString)")
        try Data(DaemonSandbox.flatpakInfo("org.example.Thief").utf8).write(to: info)
    }

    deinit {
        try? FileManager.default.removeItem(at: home)
        try? FileManager.default.removeItem(at: info)
    }

    var environment: [String: String] {
        ["PATH": "/usr/bin:/bin", "HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
         "XDG_DATA_HOME": home.appendingPathComponent("data").path, "LANG": "C.UTF-8"]
    }

    /// Runs `program` as `nobody` on the host.
    func onHost(_ program: String, _ arguments: [String], stdin: String = "") throws -> ClientResult {
        let (setpriv, command) = try OtherUser.command(program, arguments)
        let result = try runFileFed(setpriv, command, stdin: stdin, environment: environment, in: FileManager.default.temporaryDirectory)
        return ClientResult(status: result.status, stdout: result.stdout, stderr: result.stderr)
    }

    /// Runs `program` as `nobody` in a bubblewrap root, the home folder bound in or not.
    func inSandbox(withHome: Bool, _ program: String, _ arguments: [String]) throws -> ClientResult {
        let command = sandboxCommand(withHome: withHome, program, arguments)
        return try onHost(command[0], Array(command.dropFirst()))
    }

    /// The command line that runs `program` in the sandbox (for at most 60 s).
    func sandboxCommand(withHome: Bool, _ program: String, _ arguments: [String]) -> [String] {
        var root = ["--tmpfs", "/", "--ro-bind", "/usr", "/usr", "--ro-bind", "/etc", "/etc",
                    "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64", "--symlink", "usr/bin", "/bin",
                    "--proc", "/proc", "--dev", "/dev", "--ro-bind", products, "/app/bin", "--ro-bind", info.path, "/.flatpak-info"]
        if let runtime { root += ["--ro-bind", runtime, runtime] }
        if withHome { root += ["--bind", home.path, home.path] }
        return ["/usr/bin/timeout", "--kill-after=5", "60", "/usr/bin/bwrap"] + root + ["--", program] + arguments
    }

    /// The folder of the Swift runtime this test process (and so the built programs) loaded,
    /// when it is outside /usr.
    static func swiftRuntimeFolder() -> String? {
        // Read to its end: /proc files report a size of 0.
        guard let data = FileHandle(forReadingAtPath: "/proc/self/maps")?.readDataToEndOfFile() else { return nil }
        let maps = String(decoding: data, as: UTF8.self)
        for line in maps.split(separator: "\n") {
            guard let start = line.firstIndex(of: "/"), line.hasSuffix("/libswiftCore.so") else { continue }
            let folder = URL(fileURLWithPath: String(line[start...])).deletingLastPathComponent().path
            return folder.hasPrefix("/usr/") ? nil : folder
        }
        return nil
    }
}
