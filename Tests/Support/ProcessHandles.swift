public import Foundation

/// The three files a test gives a child process as its standard streams, closed by the test as
/// soon as the child has ended.
///
/// Left to Foundation, they stay open as long as it keeps the `Process` object, which on Linux can
/// be the whole run: a harness that runs a program hundreds of times then holds hundreds of
/// descriptors on deleted files. That matters beyond tidiness: Foundation's `Process.run()` lists
/// `/proc/self/fd` and copies each entry's whole 256-byte name field, reading past the end of
/// glibc's 32 KiB directory buffer once about 1,350 descriptors are open, and when no memory
/// follows that buffer the test process dies with SIGSEGV (swift-corelibs-foundation, fixed
/// upstream after Swift 6.3.1). `HarnessDescriptorTests` keeps the harnesses from leaking again.
public struct ProcessHandles {
    public let input: FileHandle
    public let output: FileHandle
    public let errors: FileHandle

    public init(input: URL, output: URL, errors: URL) throws {
        self.input = try FileHandle(forReadingFrom: input)
        self.output = try FileHandle(forWritingTo: output)
        self.errors = try FileHandle(forWritingTo: errors)
    }

    /// Makes them `process`'s standard input, output and error.
    public func attach(to process: Process) {
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
    }

    /// Closes all three (the child has its own copies).
    public func close() {
        for handle in [input, output, errors] { try? handle.close() }
    }

    /// How many descriptors of this process are open on files under `folder` (deleted ones too):
    /// what a harness that cleans up leaves behind after its runs is none.
    public static func openDescriptors(under folder: URL) -> Int {
        let prefix = folder.resolvingSymlinksInPath().path + "/"
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return entries.filter { entry in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + entry) else { return false }
            return target.hasPrefix(prefix)
        }.count
    }
}
