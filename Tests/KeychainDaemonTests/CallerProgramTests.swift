import Foundation
import KeychainCallerIdentity
import KeychainDaemon
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// How a prompt shows the path of the program that asked: what the path's owner chose cannot
/// break the prompt's text apart, reorder it or make it endless.
@Suite struct CallerProgramTests {
    @Test func controlFormatAndSeparatorCharactersAreReplaced() {
        let path = "/tmp/a\nb\u{1B}[2Jc\u{202E}d\u{200B}e\u{2028}f\u{7F}g\u{9B}h"
        let shown = CallerProgram.displayed(path)
        #expect(shown == "/tmp/a\u{FFFD}b\u{FFFD}[2Jc\u{FFFD}d\u{FFFD}e\u{FFFD}f\u{FFFD}g\u{FFFD}h")
        // Letters of any script, and spaces, are the path's own and stay.
        #expect(CallerProgram.displayed("/opt/Über Tool/ツール") == "/opt/Über Tool/ツール")
    }

    @Test func aLongPathKeepsItsBeginningAndItsEnd() {
        let path = "/home/ann/" + String(repeating: "x", count: 5000) + "/secret-tool"
        let shown = CallerProgram.displayed(path)
        #expect(shown.unicodeScalars.count == CallerProgram.longestPath)
        #expect(shown.hasPrefix("/home/ann/x"))
        #expect(shown.hasSuffix("x/secret-tool"))
        #expect(shown.contains("\u{2026}"))
        let exact = "/" + String(repeating: "y", count: CallerProgram.longestPath - 1)
        #expect(CallerProgram.displayed(exact) == exact)
    }

    @Test func theKernelNamesThisProcessAndNothingForAMissingOne() {
        #expect(CallerProgram.executable(ofProcess: UInt32(ProcessInfo.processInfo.processIdentifier))
                == (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")))
        // Beyond the kernel's largest process number (pid_max is at most 2^22).
        #expect(CallerProgram.executable(ofProcess: 1 << 23) == nil)
        #expect(CallerProgram.describe(processID: 1 << 23) == "A program keychaind could not identify (process \(1 << 23))")
    }

    /// The keeper's and the SSH agent's prompts name a socket client from its pinned identity,
    /// under the same rules: a program placed at a path with a line break and a bidirectional
    /// override cannot make the prompt say something else.
    @Test func aSocketClientAtAHostilePathIsShownSanitized() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("caller-\(UUID().uuidString)\nThe program /usr/bin/ssh\u{202E}")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("sleep")
        try FileManager.default.copyItem(atPath: "/usr/bin/sleep", toPath: copy.path)
        let process = Process()
        process.executableURL = copy
        process.arguments = ["30"]
        try process.run()
        defer { process.terminate(); kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        var caller: CallerIdentity?
        for _ in 0..<200 {
            caller = try? CallerIdentityResolver.resolve(busProcessID: UInt32(process.processIdentifier), userID: getuid())
            if caller?.executable?.path == copy.path { break }
            usleep(10_000)
        }
        let resolved = try #require(caller)
        let named = CallerProgram.describe(resolved)
        #expect(named.hasPrefix("The program "))
        #expect(!named.contains("\n") && !named.contains("\u{202E}"), "\(named)")
        #expect(named.contains("\u{FFFD}The program /usr/bin/ssh\u{FFFD}/sleep"), "\(named)")
    }

    /// A served call's own reason is quoted under the same rules.
    @Test func aCallersReasonIsQuotedSanitized() {
        let text = PinentryAuthenticator.keeperDescription(program: "The program /opt/tool",
                                                           reason: "Sign in\n\nThe program /usr/bin/ssh\u{202E}")
        #expect(text.hasPrefix("The program /opt/tool wants to use an item"))
        #expect(text.contains("It says: \u{201C}Sign in\u{FFFD}\u{FFFD}The program /usr/bin/ssh\u{FFFD}\u{201D}."), "\(text)")
        #expect(!PinentryAuthenticator.keeperDescription(program: "P", reason: "").contains("It says"))
    }
}
