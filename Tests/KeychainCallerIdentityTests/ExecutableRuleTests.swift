import Foundation
import KeychainCallerIdentity
import KeychainStore
import KeychainTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Rules on executables: by digest wherever the path is not root's alone, and the digest is of
/// the file the process runs.
@Suite struct ExecutableRuleTests {
    static func rule(_ folder: TemporaryFolder, _ text: String) throws -> (AccessPolicy, [PolicyProblem]) {
        let rules = folder.path + "/apps.d"
        try FileManager.default.createDirectory(atPath: rules, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        try Data(text.utf8).write(to: URL(fileURLWithPath: rules + "/tool.conf"))
        return PolicyFolder(path: rules, owner: .user(getuid())).load()
    }

    static func resolveRunning(_ executable: String, _ arguments: [String] = ["30"]) throws -> (Process, CallerIdentity) {
        let process = try Callers.start(executable, arguments)
        Callers.waitUntilRunning(process, executable)
        return (process, try CallerIdentityResolver.resolve(busProcessID: UInt32(process.processIdentifier), userID: getuid()))
    }

    @Test func aDigestRuleStopsMatchingWhenOneByteOfTheExecutableChanges() throws {
        let folder = try TemporaryFolder()
        let tool = try folder.write("tool", try Data(contentsOf: URL(fileURLWithPath: "/usr/bin/sleep")), mode: 0o755)
        let digest = try Callers.sha256sum(tool)
        let (policy, problems) = try Self.rule(folder, """
            # A test tool with a group of its own.
            executable = \(tool)
            executable-sha256 = \(digest)
            application-identifier = org.example.tool
            keychain-access-groups = org.example.tool
            """)
        #expect(problems.isEmpty, "\(problems)")

        let (first, caller) = try Self.resolveRunning(tool)
        Callers.stop(first)
        let granted = policy.entitlements(for: caller)
        #expect(granted.reason == .rule(source: folder.path + "/apps.d/tool.conf"))
        #expect(granted.keychainAccessGroups == ["org.example.tool"])
        #expect(granted.applicationIdentifier == "org.example.tool")

        // The last byte (the section headers, which nothing reads at run time) flipped.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: tool))
        bytes[bytes.count - 1] ^= 0x01
        try bytes.write(to: URL(fileURLWithPath: tool))
        let (second, changed) = try Self.resolveRunning(tool)
        defer { Callers.stop(second) }
        #expect(changed.executable?.path == tool)
        #expect(changed.executable?.sha256 == (try Callers.sha256sum(tool)))
        let refused = policy.entitlements(for: changed)
        #expect(refused.reason == .hostDefault)
        #expect(refused.keychainAccessGroups == [ClientIdentity.sharedGroup])
        #expect(refused.digestMismatches.count == 1)
        #expect(refused.digestMismatches.first?.contains("fingerprint changed") == true)
    }

    /// /tmp is writable by everyone: a path there says nothing without a digest.
    @Test func aPathAloneIsRefusedOutsideRootOwnedFolders() throws {
        let folder = try TemporaryFolder()
        let tool = try folder.write("tool", try Data(contentsOf: URL(fileURLWithPath: "/usr/bin/sleep")), mode: 0o755)
        let (policy, problems) = try Self.rule(folder, "executable = \(tool)\nkeychain-access-groups = org.example.tool\n")
        #expect(policy.rules.isEmpty)
        #expect(problems.count == 1)
        #expect(problems.first?.reason.contains("writable by its group or by others") == true, "\(problems)")
        #expect(problems.first?.reason.contains("executable-sha256") == true)
    }

    /// /usr/bin is root's: a path there is enough, and the process running it matches.
    @Test func aPathAloneIsEnoughUnderRootOwnedFolders() throws {
        let folder = try TemporaryFolder()
        let (policy, problems) = try Self.rule(folder, "executable = /usr/bin/sleep\nkeychain-access-groups = org.example.sleep, \(ClientIdentity.sharedGroup)\n")
        #expect(problems.isEmpty, "\(problems)")
        let (process, caller) = try Self.resolveRunning("/usr/bin/sleep")
        defer { Callers.stop(process) }
        let granted = policy.entitlements(for: caller)
        #expect(granted.keychainAccessGroups == ["org.example.sleep", ClientIdentity.sharedGroup])
        #expect(granted.clientIdentity.accessGroups.first == "org.example.sleep")
    }

    /// The D-Bus path: the bus's process id is checked against the user it said.
    @Test func aBusCallerRunningAsAnotherUserIsRefused() throws {
        let process = try Callers.start("/usr/bin/sleep", ["30"])
        defer { Callers.stop(process) }
        #expect(throws: CallerIdentityError.userMismatch(said: getuid() &+ 1, found: getuid())) {
            try CallerIdentityResolver.resolve(busProcessID: UInt32(process.processIdentifier), userID: getuid() &+ 1)
        }
    }

    @Test func aBusCallerThatHasExitedIsRefused() throws {
        let process = try Callers.start("/usr/bin/true", [])
        _ = process.waitForExit()
        #expect(throws: CallerIdentityError.callerExited(processID: process.processIdentifier)) {
            try CallerIdentityResolver.resolve(busProcessID: UInt32(process.processIdentifier), userID: getuid())
        }
    }
}
