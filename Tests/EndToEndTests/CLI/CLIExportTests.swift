import Foundation
import Testing

/// `export` onto a file that exists: refused unless --force, and never a partial file.
@Suite struct CLIExportTests {
    @Test("export onto an existing file exits 208 (dupFNErr), says so without a disk-space hint, and leaves the file as it was")
    func refusesExisting() throws {
        let sandbox = try CLISandbox()
        try sandbox.addGeneric(account: "a", service: "s", password: "secret-value")
        let backup = sandbox.path("backup.kcbak")
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: backup))
        let result = try sandbox.run(["export", "-o", backup, "-P", "phrase"])
        #expect(result.status == 208, "\(result)")
        #expect(result.stderr.contains("\(backup) already exists"))
        #expect(result.stderr.contains("[dupFNErr -48]"))
        #expect(result.stderr.contains("--force"))
        #expect(!result.stderr.contains("disk space"))
        #expect(result.stdout == "")
        #expect(try Data(contentsOf: URL(fileURLWithPath: backup)) == Data("keep me".utf8))
    }

    @Test("export refuses an existing file before asking for the passphrase")
    func refusesBeforePrompting() throws {
        let sandbox = try CLISandbox()
        let backup = sandbox.path("backup.kcbak")
        try Data().write(to: URL(fileURLWithPath: backup))
        // No passphrase on standard input: asking for one would fail with exit 1 instead.
        #expect(try sandbox.run(["export", "-o", backup]).status == 208)
    }

    @Test("export --force replaces the file with a whole backup, leaves no temporary file beside it, and import reads it")
    func forceReplaces() throws {
        let sandbox = try CLISandbox()
        try sandbox.addGeneric(account: "a", service: "s", password: "secret-value")
        let folder = sandbox.path("backups")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let backup = folder + "/backup.kcbak"
        try Data("old".utf8).write(to: URL(fileURLWithPath: backup))
        let result = try sandbox.run(["export", "--force", "-o", backup, "-P", "phrase"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "1 item exported.\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["backup.kcbak"])
        let other = sandbox.path("restored.keychain-db")
        #expect(try sandbox.run(["create-keychain", other]).status == 0)
        #expect(try sandbox.run(["import", backup, "-k", other, "-P", "phrase"]).status == 0)
        #expect(try sandbox.run(["find-generic-password", "-s", "s", "-w", other]).stdout == "secret-value\n")
    }

    @Test("export --force that fails (the keychain is locked) leaves the old file and no temporary file")
    func failedForceLeavesOldFile() throws {
        let sandbox = try CLISandbox()
        let path = try CLILockTests.lockedKeychain(sandbox)
        let folder = sandbox.path("backups")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let backup = folder + "/backup.kcbak"
        try Data("old".utf8).write(to: URL(fileURLWithPath: backup))
        let result = try sandbox.run(["export", "--force", "-o", backup, "-P", "phrase", "-k", path])
        #expect(result.status == 36, "\(result)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: backup)) == Data("old".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["backup.kcbak"])
    }
}
