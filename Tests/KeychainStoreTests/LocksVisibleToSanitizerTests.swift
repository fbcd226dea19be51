import Foundation
import Testing

/// Shared state sits behind pthread mutexes (KeychainStore's `Locked`, KeychainDBus's `Lock`),
/// never the standard library's `Mutex`, whose contended hand-over ThreadSanitizer cannot see
/// (docs/design-notes.md). The sanitizer run only shows such a lock when two threads happen to
/// contend, so the sources are read for it instead.
@Suite struct LocksVisibleToSanitizerTests {
    static var sources: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources")
    }

    /// `file:line` of every use of `Mutex` as a type or an initialiser in the Swift files under
    /// `folder`, comments left out.
    static func mutexUses(under folder: URL) throws -> [String] {
        var found: [String] = []
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
            for (number, line) in lines.enumerated() {
                let code = line.components(separatedBy: "//")[0]
                if code.range(of: #"(^|[^A-Za-z0-9_])Mutex\s*[<(]"#, options: .regularExpression) != nil {
                    found.append("\(file.lastPathComponent):\(number + 1)")
                }
            }
        }
        return found.sorted()
    }

    @Test func noSourceUsesTheStandardMutex() throws {
        #expect(FileManager.default.fileExists(atPath: Self.sources.path))
        #expect(try Self.mutexUses(under: Self.sources) == [])
    }

    /// The check finds a `Mutex` and leaves comments and other names alone.
    @Test func theCheckSeesAMutex() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mutex-uses-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "// Not Mutex<Int>(0): see Locked.\nlet a = Locked(0)\nlet b = MyMutex(1)\n"
            .write(to: folder.appendingPathComponent("Fine.swift"), atomically: true, encoding: .utf8)
        #expect(try Self.mutexUses(under: folder) == [])
        try "import Synchronization\nlet c = Mutex<Int>(0)\nlet d = Mutex(2)\n"
            .write(to: folder.appendingPathComponent("Uses.swift"), atomically: true, encoding: .utf8)
        #expect(try Self.mutexUses(under: folder) == ["Uses.swift:2", "Uses.swift:3"])
    }
}
