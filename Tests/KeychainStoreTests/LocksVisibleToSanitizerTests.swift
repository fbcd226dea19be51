import Foundation
import Testing

/// Shared state sits behind a pthread mutex (KeychainLocking's `Locked`), never the standard
/// library's `Mutex`, whose contended hand-over ThreadSanitizer cannot see (docs/design-notes.md).
/// The sanitizer run only shows such a lock when two threads happen to contend, so the sources
/// and the tests (which it runs too) are read for it instead.
@Suite struct LocksVisibleToSanitizerTests {
    static var repository: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// The type's name, spelt in two pieces so that this file does not name it.
    static let standardMutex = "Mu" + "tex"

    /// `file:line` of every line under `folder` whose code (comments left out) names the
    /// standard `Mutex` as a whole word: a type, an initialiser, an alias.
    static func mutexUses(under folder: URL) throws -> [String] {
        let word = "(^|[^A-Za-z0-9_])" + standardMutex + "([^A-Za-z0-9_]|$)"
        var found: [String] = []
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
            for (number, line) in lines.enumerated() {
                let code = line.components(separatedBy: "//")[0]
                if code.range(of: word, options: .regularExpression) != nil {
                    found.append("\(file.lastPathComponent):\(number + 1)")
                }
            }
        }
        return found.sorted()
    }

    @Test(arguments: ["Sources", "Tests"])
    func noFileUsesTheStandardMutex(_ folder: String) throws {
        let url = Self.repository.appendingPathComponent(folder)
        #expect(FileManager.default.fileExists(atPath: url.path))
        #expect(try Self.mutexUses(under: url) == [])
    }

    /// The check finds the type used in each way, and leaves comments and other names alone.
    @Test func theCheckSeesAMutex() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mutex-uses-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let name = Self.standardMutex
        try "// Not \(name)<Int>(0): see Locked.\nlet a = Locked(0)\nlet b = My\(name)(1)\n"
            .write(to: folder.appendingPathComponent("Fine.swift"), atomically: true, encoding: .utf8)
        #expect(try Self.mutexUses(under: folder) == [])
        try "import Synchronization\nlet c = \(name)<Int>(0)\nlet d = \(name)(2)\ntypealias Guard = \(name)<Int>\nlet e = \(name).init(3)\n"
            .write(to: folder.appendingPathComponent("Uses.swift"), atomically: true, encoding: .utf8)
        #expect(try Self.mutexUses(under: folder) == ["Uses.swift:2", "Uses.swift:3", "Uses.swift:4", "Uses.swift:5"])
    }
}
