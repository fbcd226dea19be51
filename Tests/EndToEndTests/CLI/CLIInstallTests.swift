import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// scripts/install.sh into a temporary prefix, with the debug build `swift build --build-tests`
/// already made (`--debug --no-build`: the script then runs no SwiftPM command, which would wait
/// for the build folder this test run holds), then `--uninstall`.
@Suite struct CLIInstallTests {
    static let ours = [
        "bin/keychainctl", "bin/keychainctl-full", "bin/keychaind", "bin/git-credential-keychain", "bin/docker-credential-keychain",
        "bin/keychain-sync",
        "share/bash-completion/completions/keychainctl", "share/zsh/site-functions/_keychainctl",
        "share/fish/vendor_completions.d/keychainctl.fish",
        activation, "share/systemd/user/keychaind.service", "share/systemd/user/keychaind.socket",
        "share/swift-keychain/install-manifest", "libexec/swift-keychain/keychain-pam-helper",
    ]

    /// keychaind's D-Bus activation file: where the session bus reads it for a user's own install;
    /// aside, as the Debian package has it, when root installs (a folder every user's bus reads,
    /// such as /usr/local/share/dbus-1/services, would make keychaind everyone's Secret Service).
    static let activation = geteuid() == 0 ? "share/swift-keychain/dbus-1/org.freedesktop.secrets.service"
        : "share/dbus-1/services/org.freedesktop.secrets.service"

    func install(_ arguments: [String], home: CLISandbox) throws -> ProofSupport.Outcome {
        let script = ProofSupport.packageRoot.appendingPathComponent("scripts/install.sh")
        return try ProofSupport.run(try ProofSupport.tool("bash"), [script.path] + arguments, environment: home.environment)
    }

    /// Every file and folder under `root`, relative to it, sorted.
    func contents(_ root: URL) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: root.path)
        return ((enumerator?.allObjects as? [String]) ?? []).sorted()
    }

    @Test("install.sh --debug --no-build installs everything under the prefix; --uninstall removes exactly that")
    func installThenUninstall() throws {
        let home = try CLISandbox()
        let prefix = home.home.appendingPathComponent("prefix")
        // Something of someone else's in the prefix, which uninstall must leave alone.
        let foreign = prefix.appendingPathComponent("bin/other-tool")
        try FileManager.default.createDirectory(at: foreign.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("keep me\n".utf8).write(to: foreign)

        let installed = try install(["--debug", "--no-build", "--prefix", prefix.path], home: home)
        try #require(installed.status == 0, "\(installed.stdout)\(installed.stderr)")
        for path in Self.ours {
            let file = prefix.appendingPathComponent(path)
            let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
            #expect(size > 0, "\(path) is missing or empty")
        }
        for binary in Self.ours.prefix(6) {
            #expect(FileManager.default.isExecutableFile(atPath: prefix.appendingPathComponent(binary).path), "\(binary)")
        }
        // The man pages are there when swift-argument-parser's plugin made them (install.sh
        // without --no-build runs it).
        let page = ProofSupport.packageRoot.appendingPathComponent(".build/plugins/GenerateManual/outputs/keychainctl/keychainctl.1")
        if FileManager.default.fileExists(atPath: page.path) {
            #expect(FileManager.default.fileExists(atPath: prefix.appendingPathComponent("share/man/man1/keychainctl.1").path))
        }
        let version = try ProofSupport.run(prefix.appendingPathComponent("bin/keychainctl"), ["--version"], environment: home.environment)
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("keychainctl "))
        let unit = try String(contentsOf: prefix.appendingPathComponent("share/systemd/user/keychaind.service"), encoding: .utf8)
        #expect(unit.contains("ExecStart=\(prefix.path)/bin/keychaind\n"))
        let activation = try String(contentsOf: prefix.appendingPathComponent(Self.activation), encoding: .utf8)
        #expect(activation.contains("Exec=\(prefix.path)/bin/keychaind\n"))
        if geteuid() == 0 {
            // Nothing in the folders a session bus reads, and the way to put it there is printed.
            #expect(!FileManager.default.fileExists(atPath: prefix.appendingPathComponent("share/dbus-1").path),
                    "root's install leaves share/dbus-1 alone: \(contents(prefix).filter { $0.hasPrefix("share/dbus-1") })")
            #expect(installed.stdout.contains("cp \(prefix.path)/\(Self.activation) ~/.local/share/dbus-1/services/"), "\(installed.stdout)")
        }
        // The PAM module, built for this prefix's helper, wherever libpam's headers are (CI has them).
        if FileManager.default.fileExists(atPath: "/usr/include/security/pam_modules.h") {
            let module = try Data(contentsOf: prefix.appendingPathComponent("lib/security/pam_keychain.so"))
            #expect(module.range(of: Data("\(prefix.path)/libexec/swift-keychain/keychain-pam-helper\0".utf8)) != nil)
        }
        let manifest = try String(contentsOf: prefix.appendingPathComponent("share/swift-keychain/install-manifest"), encoding: .utf8)
        #expect(!manifest.contains("other-tool"))
        #expect(manifest.contains("\(prefix.path)/bin/keychainctl\n"))

        // Installing again is harmless, and still uninstalls cleanly. As root, an activation file
        // that an earlier install put where every session bus reads it (recorded in the manifest,
        // with the folders it made) is removed.
        let shared = prefix.appendingPathComponent("share/dbus-1/services/org.freedesktop.secrets.service")
        if geteuid() == 0 {
            try FileManager.default.createDirectory(at: shared.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(activation.utf8).write(to: shared)
            let handle = try FileHandle(forWritingTo: prefix.appendingPathComponent("share/swift-keychain/install-manifest"))
            handle.seekToEndOfFile()
            handle.write(Data("\(prefix.path)/share/dbus-1/\n\(prefix.path)/share/dbus-1/services/\n\(shared.path)\n".utf8))
            handle.closeFile()
        }
        let again = try install(["--debug", "--no-build", "--prefix", prefix.path], home: home)
        #expect(again.status == 0, "\(again.stderr)")
        if geteuid() == 0 {
            #expect(!FileManager.default.fileExists(atPath: shared.path), "\(again.stdout)")
            let recorded = try String(contentsOf: prefix.appendingPathComponent("share/swift-keychain/install-manifest"), encoding: .utf8)
            #expect(!recorded.contains(shared.path))
        }

        let removed = try install(["--uninstall", "--prefix", prefix.path], home: home)
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(contents(prefix) == ["bin", "bin/other-tool"])
        #expect(try String(contentsOf: foreign, encoding: .utf8) == "keep me\n")

        // Nothing left to uninstall: an error, and nothing touched.
        let twice = try install(["--uninstall", "--prefix", prefix.path], home: home)
        #expect(twice.status == 1)
        #expect(contents(prefix) == ["bin", "bin/other-tool"])
    }

    @Test("install.sh without --prefix puts its data files in XDG_DATA_HOME, says when bin is not on the PATH, and uninstalls from there")
    func followsTheDataHome() throws {
        let home = try CLISandbox()
        // The sandbox's environment sets XDG_DATA_HOME to home/data; the PATH does not have ~/.local/bin.
        let data = home.home.appendingPathComponent("data")
        let prefix = home.home.appendingPathComponent(".local")
        let installed = try install(["--debug", "--no-build"], home: home)
        try #require(installed.status == 0, "\(installed.stdout)\(installed.stderr)")
        let activation = geteuid() == 0 ? "swift-keychain/dbus-1/org.freedesktop.secrets.service"
            : "dbus-1/services/org.freedesktop.secrets.service"
        for path in [activation, "systemd/user/keychaind.service", "systemd/user/keychaind.socket", "bash-completion/completions/keychainctl",
                     "zsh/site-functions/_keychainctl", "fish/vendor_completions.d/keychainctl.fish",
                     "swift-keychain/install-manifest"] {
            #expect(FileManager.default.fileExists(atPath: data.appendingPathComponent(path).path), "\(path) is not in XDG_DATA_HOME")
        }
        #expect(!FileManager.default.fileExists(atPath: prefix.appendingPathComponent("share/systemd").path))
        #expect(!FileManager.default.fileExists(atPath: prefix.appendingPathComponent("share/dbus-1").path))
        #expect(FileManager.default.isExecutableFile(atPath: prefix.appendingPathComponent("bin/keychainctl").path))
        let unit = try String(contentsOf: data.appendingPathComponent("systemd/user/keychaind.service"), encoding: .utf8)
        #expect(unit.contains("ExecStart=\(prefix.path)/bin/keychaind\n"))
        #expect(installed.stdout.contains("\(prefix.path)/bin is not on your PATH"), "\(installed.stdout)")

        let removed = try install(["--uninstall"], home: home)
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(contents(data).filter { !$0.hasPrefix("keychains") } == [], "left in XDG_DATA_HOME: \(contents(data))")
        #expect(!FileManager.default.fileExists(atPath: prefix.appendingPathComponent("bin/keychainctl").path))
    }

    @Test("install.sh refuses unknown arguments and configurations with the usage status")
    func usage() throws {
        let home = try CLISandbox()
        #expect(try install(["--frobnicate"], home: home).status == 2)
        let script = ProofSupport.packageRoot.appendingPathComponent("scripts/install.sh")
        let bad = try ProofSupport.run(try ProofSupport.tool("bash"), [script.path, "--no-build", "--prefix", home.path("p")],
                                       environment: home.environment.merging(["SWIFT_KEYCHAIN_INSTALL_BUILD": "fast"]) { $1 })
        #expect(bad.status == 2)
        #expect(!FileManager.default.fileExists(atPath: home.path("p")))
    }
}
