import Foundation
import KeychainDaemon
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
}
