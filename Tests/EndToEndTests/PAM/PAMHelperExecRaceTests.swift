import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The attack on the helper's start: another process of the user logging in (the attacker,
/// Tests/Fixtures/pam-stdin-thief.c, run as that user) waits for keychain-pam-helper to be
/// executed and copies its standard input, the socket the module writes the password into, with
/// pidfd_getfd, then reads what waits there with MSG_PEEK, leaving it for the helper. That works
/// while the helper is dumpable: from execve until its own code makes it non-dumpable, when the
/// user can read its executable. Installed unreadable (mode 0711), it starts non-dumpable and the
/// copy is refused. Both the helper and the attacker run as the unprivileged test user: root's
/// CAP_SYS_PTRACE would pass any check.
extension PAMModuleTests {
    /// What the attacker printed, one line each (see the fixture's header).
    struct ThiefReport {
        let lines: [String]

        /// What it read from a helper's standard input, if anything.
        var peeked: [UInt8]? {
            guard let line = lines.first(where: { $0.hasPrefix("peeked ") }),
                  let hex = line.split(separator: " ").last, hex.count % 2 == 0 else { return nil }
            var bytes: [UInt8] = []
            var index = hex.startIndex
            while index < hex.endIndex {
                let next = hex.index(index, offsetBy: 2)
                guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
                bytes.append(byte)
                index = next
            }
            return bytes
        }

        /// Whether it found the helper's process and the kernel refused it its descriptor (EPERM).
        var refusedByTheKernel: Bool { lines.contains { $0.hasPrefix("refused ") && $0.hasSuffix(" \(EPERM)") } }
        /// Whether it saw a helper process run to its end (rather than none at all).
        var sawTheHelperEnd: Bool { lines.contains { $0.hasPrefix("ended ") } }

        func contains(_ password: String) -> Bool {
            guard let peeked else { return false }
            let wanted = Array((password + "\0").utf8)
            return peeked.count >= wanted.count && (0...(peeked.count - wanted.count)).contains { Array(peeked[$0..<($0 + wanted.count)]) == wanted }
        }
    }

    /// Runs `step` (a pamtester call) in one session with the attacker lying in wait for
    /// `watched` to be executed, then `after`. The attacker is started and ready before the
    /// step begins, and done (it leaves after the first helper process it found has ended) before
    /// `after` runs.
    private func race(_ bed: PAMTestBed, watching watched: URL, _ step: SessionStep, then after: [SessionStep] = [])
        throws -> (step: CLIResult, thief: ThiefReport, after: [CLIResult]) {
        let thief = try PAMEnvironment.thief.get()
        let output = bed.home.appendingPathComponent("thief-\(UUID().uuidString).out")
        let out = PAMTestBed.quote(output.path)
        // Bounded waits, so that a broken attacker fails the test rather than hanging it.
        let start = SessionStep(arguments: ["/bin/sh", "-c", """
            \(PAMTestBed.quote(thief.path)) \(PAMTestBed.quote(watched.path)) >\(out) 2>&1 </dev/null &
            n=0; until grep -q '^ready' \(out) 2>/dev/null; do n=$((n+1)); [ $n -lt 2000 ] || exit 1; sleep 0.01; done
            """], asUser: true)
        let finish = SessionStep(arguments: ["/bin/sh", "-c", """
            n=0; until grep -q '^ended\\|^timeout' \(out); do n=$((n+1)); [ $n -lt 4000 ] || exit 1; sleep 0.01; done
            """], asUser: true)
        let results = try bed.runSession([start, step, finish] + after)
        try #require(results[0].status == 0, "the attacker did not start: \(results[0]) \((try? String(contentsOf: output, encoding: .utf8)) ?? "")")
        let report = ThiefReport(lines: try String(contentsOf: output, encoding: .utf8).split(separator: "\n").map(String.init))
        #expect(results[2].status == 0, "the attacker did not finish: \(report.lines)")
        return (results[1], report, Array(results.dropFirst(3)))
    }

    /// scripts/install.sh's install, with the lines docs/pam.md gives (no helper= option: the
    /// module's built-in path is the installed helper), under attack.
    @Test("Installed by scripts/install.sh, the module runs the installed helper (mode 0711), from which a process of the user racing its start takes nothing, at login or at a password change; --uninstall removes both")
    func execRaceAgainstInstalledHelper() throws {
        let bed = try PAMTestBed()
        try bed.createLoginKeychain()
        let prefix = bed.publicFolder.appendingPathComponent("prefix")
        let script = PAMEnvironment.packageRoot.appendingPathComponent("scripts/install.sh").path
        // The debug build `swift build --build-tests` made; --no-build runs no SwiftPM command.
        try PAMEnvironment.run("/bin/bash", [script, "--debug", "--no-build", "--prefix", prefix.path])
        let module = prefix.appendingPathComponent("lib/security/pam_keychain.so")
        let helper = prefix.appendingPathComponent("libexec/swift-keychain/keychain-pam-helper")
        try #require(FileManager.default.fileExists(atPath: module.path) && FileManager.default.isExecutableFile(atPath: helper.path))
        let mode = try FileManager.default.attributesOfItem(atPath: helper.path)[.posixPermissions] as? Int
        #expect(mode == 0o711, "the helper is readable by no one but root: \(String(mode ?? 0, radix: 8))")
        try """
            auth     required  pam_unix.so
            auth     optional  \(module.path)
            account  required  pam_unix.so
            session  required  pam_permit.so
            session  optional  \(module.path)
            password required  pam_unix.so
            password optional  \(module.path)

            """.write(toFile: bed.serviceFile, atomically: true, encoding: .utf8)

        let login = try race(bed, watching: helper, bed.pamtester(["authenticate", "open_session"], stdin: bed.password + "\n"),
                             then: [bed.keychainctl(["show-keychain-info", "--locked-status"])])
        #expect(login.step.status == 0 && login.after[0].status == 0, "the login unlocks: \(login.step) \(login.after)")
        #expect(bed.log.drain().contains { $0.contains("unlocked \(bed.loginKeychain.path)") })
        #expect(login.thief.refusedByTheKernel && login.thief.sawTheHelperEnd, "the attacker found the helper and was refused: \(login.thief.lines)")
        #expect(login.thief.peeked == nil && !login.thief.contains(bed.password), "nothing was taken: \(login.thief.lines)")

        let newPassword = "Raced-\(UUID().uuidString.suffix(12))"
        let change = try race(bed, watching: helper,
                              bed.pamtester(["chauthtok(PAM_CHANGE_EXPIRED_AUTHTOK)"], stdin: "\(bed.password)\n\(newPassword)\n\(newPassword)\n"))
        #expect(change.step.status == 0, "\(change.step)")
        #expect(bed.log.drain().contains { $0.contains("changed the password of") }, "the helper re-keyed the keychain")
        #expect(change.thief.refusedByTheKernel && change.thief.sawTheHelperEnd, "\(change.thief.lines)")
        #expect(change.thief.peeked == nil, "nothing was taken: \(change.thief.lines)")

        try PAMEnvironment.run("/bin/bash", [script, "--uninstall", "--prefix", prefix.path])
        #expect(!FileManager.default.fileExists(atPath: module.path) && !FileManager.default.fileExists(atPath: helper.path))
    }

    /// The same attacker against a helper the user can read proves the attack works here (the
    /// test above would pass for nothing otherwise). The module no longer runs such a helper, so
    /// it reaches one through the relay stand-in (mode 0711, accepted), which executes a readable
    /// copy of keychain-pam-helper in the same process, exactly as the module used to.
    @Test("The attacker takes the login password, and both passwords of a change, from a helper the user can read; the module refuses to run one")
    func execRaceAgainstReadableHelper() throws {
        let bed = try PAMTestBed()
        try bed.createLoginKeychain()
        let built = try HelperRunner.binary("keychain-pam-helper")
        let relay = try bed.writeHelper("keychain-pam-helper", "")
        let readable = PAMTestBed.target(of: relay)
        try PAMEnvironment.run("/usr/bin/install", ["-m", "0755", built.path, readable.path])
        try bed.writeService(options: "helper=\(relay.path)")

        let login = try race(bed, watching: readable, bed.pamtester(["authenticate", "open_session"], stdin: bed.password + "\n"),
                             then: [bed.keychainctl(["show-keychain-info", "--locked-status"])])
        #expect(login.step.status == 0 && login.after[0].status == 0, "the login went on unaware: \(login.step) \(login.after)")
        #expect(login.thief.contains(bed.password), "the attacker read the login password: \(login.thief.lines)")

        let newPassword = "Raced-\(UUID().uuidString.suffix(12))"
        let change = try race(bed, watching: readable,
                              bed.pamtester(["chauthtok(PAM_CHANGE_EXPIRED_AUTHTOK)"], stdin: "\(bed.password)\n\(newPassword)\n\(newPassword)\n"))
        #expect(change.step.status == 0, "\(change.step)")
        #expect(change.thief.contains(bed.password) && change.thief.contains(newPassword),
                "the attacker read the old and the new password: \(change.thief.lines)")
        _ = bed.log.drain()

        // Named directly, a helper the user can read is refused: logged, the keychain left locked,
        // the login unaffected.
        try bed.writeService(options: "helper=\(readable.path)")
        let refused = try bed.runSession([
            bed.pamtester(["authenticate", "open_session"], stdin: newPassword + "\n"),
            bed.keychainctl(["show-keychain-info", "--locked-status"]),
        ])
        #expect(refused[0].status == 0, "the login succeeds: \(refused[0])")
        #expect(refused[1].status == 36, "the keychain stays locked: \(refused[1])")
        let log = bed.log.drain()
        #expect(log.contains { $0.contains("helper \(readable.path) can be read by users other than its owner") }, "\(log)")
        #expect(!log.joined().contains(newPassword))
    }
}
