import Foundation
import KeychainCallerIdentity
import KeychainTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A rule never grants by an interpreter or generic client alone: its executable says nothing
/// of what it runs.
@Suite struct InterpreterRuleTests {
    static let anyDigest = String(repeating: "ab", count: 32)

    @Test(arguments: ["/usr/bin/python3", "/bin/sh", "/usr/bin/bash", "/usr/bin/env", "/usr/bin/perl",
                      "/usr/bin/secret-tool", "/lib64/ld-linux-x86-64.so.2"])
    func anInterpreterAloneIsRefusedWhenLoaded(executable: String) throws {
        try #require(FileManager.default.fileExists(atPath: executable), "\(executable) is not installed")
        #expect {
            try AccessRule.parse("executable = \(executable)\nexecutable-sha256 = \(Self.anyDigest)\nkeychain-access-groups = org.example.x\n",
                                 source: "x.conf")
        } throws: { error in
            let reason = (error as? PolicyProblem)?.reason ?? ""
            return reason.contains("interpreter or generic client") && reason.contains("script")
        }
    }

    @Test func aNonInterpreterCannotNameAScript() throws {
        #expect(throws: PolicyProblem.self) {
            try AccessRule.parse("executable = /usr/bin/sleep\nscript = /etc/hostname\nkeychain-access-groups = g\n", source: "x.conf")
        }
    }

    /// python3 on the named script matches; on other code, or with an option before the script, it does not.
    @Test func aRuleOnInterpreterAndScriptMatchesOnlyThatScript() throws {
        let folder = try TemporaryFolder()
        let script = try folder.write("tool.py", Array("import time\ntime.sleep(30)\n".utf8))
        let rule = try AccessRule.parse("""
            executable = \(Callers.python)
            executable-sha256 = \(try Callers.sha256sum(Callers.pythonExecutable))
            script = \(script)
            script-sha256 = \(try Callers.sha256sum(script))
            keychain-access-groups = org.example.script
            """, source: "script.conf")
        let policy = AccessPolicy(rules: [rule])

        func granted(_ arguments: [String]) throws -> GrantedEntitlements {
            let process = try Callers.start(Callers.python, arguments)
            defer { Callers.stop(process) }
            Callers.waitUntilRunning(process, Callers.pythonExecutable)
            let caller = try CallerIdentityResolver.resolve(busProcessID: UInt32(process.processIdentifier), userID: getuid())
            return policy.entitlements(for: caller)
        }
        #expect(try granted([script]).keychainAccessGroups == ["org.example.script"])
        #expect(try granted(["--", script]).keychainAccessGroups == ["org.example.script"])
        #expect(try granted(["-c", "import time; time.sleep(30)", script]).reason == .hostDefault)
        // `-W x` takes a value; an option before the script means no script is known.
        #expect(try granted(["-W", "ignore", script]).reason == .hostDefault)

        // The same path with other contents: the rule no longer matches.
        try Data("import time\ntime.sleep(31)\n".utf8).write(to: URL(fileURLWithPath: script))
        let changed = try granted([script])
        #expect(changed.reason == .hostDefault)
        #expect(changed.digestMismatches.first?.contains("script") == true)
    }
}
