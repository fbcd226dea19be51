import Foundation
import Testing

/// Apple's `Sec…` and `CF…` functions are C functions imported into Swift, and the compiler never
/// warns when a caller drops what an imported function returns (`SecItemDelete(query)` alone on
/// a line is common Apple code). Ours are Swift functions, which would warn, and a project built
/// with warnings as errors would stop. So every public top-level function of KeychainServices
/// that returns a value is `@discardableResult`; this reads the sources for one that is not.
/// (EndToEndTests' ImportPathTests type-checks a fixture of such calls with `-warnings-as-errors`.)
@Suite("Mirrored C functions never warn about an unused result")
struct DiscardableResultTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/KeychainServices")

    /// `file:line` of each top-level `public func` whose signature (up to its body's brace)
    /// returns a value and whose line above is not `@discardableResult`, and how many returning
    /// functions were seen.
    static func functionsThatWouldWarn() throws -> (missing: [String], returning: Int) {
        var missing: [String] = []
        var returning = 0
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
            for (index, line) in lines.enumerated() where line.hasPrefix("public func ") {
                var signature = ""
                for next in lines[index...] {
                    signature += next
                    if next.contains("{") { break }
                }
                guard signature.components(separatedBy: "{")[0].contains("->") else { continue }
                returning += 1
                let above = index > 0 ? lines[index - 1].trimmingCharacters(in: .whitespaces) : ""
                if above != "@discardableResult" { missing.append("\(file.lastPathComponent):\(index + 1)") }
            }
        }
        return (missing, returning)
    }

    @Test("Every public top-level function that returns a value is @discardableResult")
    func everyReturningFunctionIsDiscardable() throws {
        let (missing, returning) = try Self.functionsThatWouldWarn()
        #expect(returning > 60, "the reader found only \(returning) functions that return a value")
        #expect(missing.isEmpty, "these would warn when a caller drops their result: \(missing)")
    }
}
