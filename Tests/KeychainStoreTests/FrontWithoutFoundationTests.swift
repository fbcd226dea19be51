import Foundation
import Testing

/// keychainctl's front is built from the engine and three small targets without Foundation
/// (docs/design-notes.md): a file there that imports Foundation outright (not as the fallback of
/// `#if canImport(FoundationEssentials)`) links all of Foundation into the installed front and
/// slows every start. The debug build links dynamically and cannot show it; the sources can.
@Suite struct FrontWithoutFoundationTests {
    static let frontTargets = ["KeychainStore", "keychainctl", "KeychainctlCommandLine", "KeychainctlPasswords"]

    static var sources: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources")
    }

    /// `file:line` of every import of Foundation itself not under a `#else` of a
    /// `canImport(FoundationEssentials)` check, in the Swift files under `folder`.
    static func outrightImports(under folder: URL) throws -> [String] {
        var found: [String] = []
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
            var guardedBranch = false
            var previous = ""
            for (number, line) in lines.enumerated() {
                let text = line.trimmingCharacters(in: .whitespaces)
                if text.hasPrefix("#if") { guardedBranch = text.contains("canImport(FoundationEssentials)") }
                if text.hasPrefix("#endif") { guardedBranch = false }
                let words = text.split(separator: " ")
                if words.count >= 2, words.last == "Foundation", words.dropLast().last == "import",
                   !(guardedBranch && previous == "#else") {
                    found.append("\(file.lastPathComponent):\(number + 1)")
                }
                if !text.isEmpty { previous = text }
            }
        }
        return found
    }

    @Test func theFrontsTargetsImportOnlyFoundationEssentials() throws {
        for target in Self.frontTargets {
            let folder = Self.sources.appendingPathComponent(target)
            #expect(FileManager.default.fileExists(atPath: folder.path), "\(target)")
            #expect(try Self.outrightImports(under: folder) == [], "\(target)")
        }
    }

    /// The check itself finds an outright import, and leaves the fallback alone.
    @Test func theCheckSeesAnOutrightImport() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("front-imports-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "#if canImport(FoundationEssentials)\nimport FoundationEssentials\n#else\nimport Foundation\n#endif\n"
            .write(to: folder.appendingPathComponent("Guarded.swift"), atomically: true, encoding: .utf8)
        #expect(try Self.outrightImports(under: folder) == [])
        try "package import Foundation\n\nstruct S {}\n".write(to: folder.appendingPathComponent("Outright.swift"), atomically: true, encoding: .utf8)
        #expect(try Self.outrightImports(under: folder) == ["Outright.swift:1"])
    }
}
