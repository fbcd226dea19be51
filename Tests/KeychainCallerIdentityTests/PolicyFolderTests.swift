import Foundation
import KeychainCallerIdentity
import KeychainStore
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Policy folders: what is read, what is refused, and that every refusal is reported.
@Suite struct PolicyFolderTests {
    static let good = "flatpak = org.example.A\nkeychain-access-groups = org.example.A\n"

    static func folder(_ temporary: TemporaryFolder, mode: Int = 0o755) throws -> String {
        let path = temporary.path + "/apps.d"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    @Test func aFolderThatDoesNotExistHasNoRulesAndNoProblems() {
        let (policy, problems) = PolicyFolder(path: "/nonexistent/swift-keychain/apps.d", owner: .root).load()
        #expect(policy.rules.isEmpty)
        #expect(problems.isEmpty)
    }

    @Test func goodRulesAreReadAndEveryRefusalIsReported() throws {
        let temporary = try TemporaryFolder()
        let path = try Self.folder(temporary)
        try temporary.write("apps.d/a.conf", Array(Self.good.utf8))
        try temporary.write("apps.d/b.conf", Array("snap = firefox\nkeychain-access-groups = snap.firefox, \(ClientIdentity.sharedGroup)\n".utf8))
        try temporary.write("apps.d/c.conf", Array("executable = /usr/bin/python3\nkeychain-access-groups = g\n".utf8))
        try temporary.write("apps.d/d.conf", Array("flatpak = org.example.D\ncolour = blue\nkeychain-access-groups = g\n".utf8))
        try temporary.write("apps.d/e.conf", Array("flatpak = org.example.E\nsnap = e\nkeychain-access-groups = g\n".utf8))
        try temporary.write("apps.d/f.conf", Array("flatpak = org.example.A\nkeychain-access-groups = other\n".utf8))
        try temporary.write("apps.d/g.conf", Array(Self.good.utf8).map { $0 == UInt8(ascii: "A") ? 0xFF : $0 })
        try temporary.write("apps.d/h.conf", Array("system-unit = nginx.service\n".utf8))
        try temporary.write("apps.d/README", Array("not a rule".utf8))

        let (policy, problems) = PolicyFolder(path: path, owner: .user(getuid())).load()
        #expect(policy.rules.map(\.source) == [path + "/a.conf", path + "/b.conf"])
        #expect(policy.rules.last?.keychainAccessGroups == ["snap.firefox", ClientIdentity.sharedGroup])
        let reasons = Dictionary(uniqueKeysWithValues: problems.map { (String($0.file.split(separator: "/").last!), $0.reason) })
        #expect(reasons.keys.sorted() == ["c.conf", "d.conf", "e.conf", "f.conf", "g.conf", "h.conf"])
        #expect(reasons["c.conf"]?.contains("interpreter") == true)
        #expect(reasons["d.conf"]?.contains("unknown key 'colour'") == true)
        #expect(reasons["e.conf"]?.contains("exactly one") == true)
        #expect(reasons["f.conf"]?.contains("same caller as \(path)/a.conf") == true)
        #expect(reasons["g.conf"]?.contains("UTF-8") == true)
        #expect(reasons["h.conf"]?.contains("keychain-access-groups") == true)
    }

    @Test func aFileOthersCanWriteIsRefused() throws {
        let temporary = try TemporaryFolder()
        let path = try Self.folder(temporary)
        try temporary.write("apps.d/a.conf", Array(Self.good.utf8), mode: 0o664)
        let (policy, problems) = PolicyFolder(path: path, owner: .user(getuid())).load()
        #expect(policy.rules.isEmpty)
        #expect(problems == [PolicyProblem(file: path + "/a.conf", reason: "the file is writable by its group or by others")])
    }

    @Test func aFolderOthersCanWriteIsNotRead() throws {
        let temporary = try TemporaryFolder()
        let path = try Self.folder(temporary, mode: 0o777)
        try temporary.write("apps.d/a.conf", Array(Self.good.utf8))
        let (policy, problems) = PolicyFolder(path: path, owner: .user(getuid())).load()
        #expect(policy.rules.isEmpty)
        #expect(problems.count == 1)
        #expect(problems.first?.reason.contains("none of its rules is read") == true)
    }

    @Test func aSymbolicLinkIsRefused() throws {
        let temporary = try TemporaryFolder()
        let path = try Self.folder(temporary)
        let target = try temporary.write("elsewhere.conf", Array(Self.good.utf8))
        try FileManager.default.createSymbolicLink(atPath: path + "/a.conf", withDestinationPath: target)
        let (policy, problems) = PolicyFolder(path: path, owner: .user(getuid())).load()
        #expect(policy.rules.isEmpty)
        #expect(problems == [PolicyProblem(file: path + "/a.conf", reason: "is a symbolic link")])
    }

    /// Root may hand a file to another user; the system folder then refuses it, and a user's
    /// folder refuses files of users other than its own.
    @Test(.enabled(if: getuid() == 0, "needs root to give a file to another user"))
    func aFileOfAnotherOwnerIsRefused() throws {
        let temporary = try TemporaryFolder()
        let path = try Self.folder(temporary)
        let file = try temporary.write("apps.d/a.conf", Array(Self.good.utf8))
        #expect(chown(file, 65534, 65534) == 0)

        let system = PolicyFolder(path: path, owner: .root).load()
        #expect(system.policy.rules.isEmpty)
        #expect(system.problems == [PolicyProblem(file: file, reason: "the file is owned by user 65534, not root")])

        let otherUser = PolicyFolder(path: path, owner: .user(1000)).load()
        #expect(otherUser.problems == [PolicyProblem(file: file, reason: "the file is owned by user 65534, neither by user 1000 nor root")])
        // The same file in the folder of its owner (the folder is root's, which a user's folder accepts).
        #expect(PolicyFolder(path: path, owner: .user(65534)).load().policy.rules.count == 1)
    }

    @Test func theUserFolderIsUnderTheConfigurationFolder() {
        #expect(PolicyFolder.user(1000, environment: ["XDG_CONFIG_HOME": "/x/config", "HOME": "/home/a"])?.path == "/x/config/swift-keychain/apps.d")
        #expect(PolicyFolder.user(1000, environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/home/a"])?.path == "/home/a/.config/swift-keychain/apps.d")
        #expect(PolicyFolder.user(1000, environment: [:]) == nil)
        #expect(PolicyFolder.system.path == "/etc/swift-keychain/apps.d")
    }
}
