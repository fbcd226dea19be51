import Foundation
import KeychainTestSupport
import Testing

/// The harnesses that run programs hundreds of times per test run close the files they give
/// each child as soon as it ends; none leaves a descriptor open behind it
/// (Tests/Support/ProcessHandles.swift says what an accumulation of them did to the test process).
@Suite struct HarnessDescriptorTests {
    static let runs = 10

    /// Descriptors of this process open on files that have been deleted and whose path contains
    /// `marker`: what a harness that forgets to close leaves behind.
    static func deletedDescriptors(containing marker: String) -> Int {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return entries.filter { entry in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + entry) else { return false }
            return target.contains(marker) && target.hasSuffix("(deleted)")
        }.count
    }

    @Test("The PAM harness's runs leave no descriptor open on their deleted files")
    func pamHarnessCloses() throws {
        for _ in 0..<Self.runs { try PAMEnvironment.run("/bin/true", []) }
        // Its folders are kcpam-run-UUID; one of another test still running is not yet deleted.
        #expect(Self.deletedDescriptors(containing: "/kcpam-run-") == 0)
    }

    @Test("The credential helpers' harness leaves no descriptor open under its sandbox")
    func helperHarnessCloses() throws {
        let runner = HelperRunner(sandbox: try CLISandbox())
        for _ in 0..<Self.runs { try runner.run(URL(fileURLWithPath: "/bin/true"), []) }
        #expect(ProcessHandles.openDescriptors(under: runner.sandbox.home) == 0)
    }

    @Test("keychainctl's harness leaves no descriptor open under its sandbox")
    func cliHarnessCloses() throws {
        let sandbox = try CLISandbox()
        for _ in 0..<Self.runs { try sandbox.run(["--version"]) }
        #expect(ProcessHandles.openDescriptors(under: sandbox.home) == 0)
    }
}
