import Foundation
import Testing

/// docs/architecture.md's table of modules is the one map of the package: every target the
/// manifest declares has a row there, and every module the table names is a target (or one of
/// the few things outside SwiftPM the table lists), so the two cannot drift apart.
@Suite("The architecture map matches Package.swift")
struct ArchitectureMapTests {
    /// Names declared as `name: "X"` in a `.target`, `.executableTarget`, `.testTarget` or
    /// `.systemLibrary` of the manifest (the sync targets, built only with the Sync trait, among them).
    static func manifestTargets() throws -> Set<String> {
        let manifest = try String(contentsOf: ProofSupport.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        var names: Set<String> = []
        for kind in [".target(", ".executableTarget(", ".testTarget(", ".systemLibrary("] {
            var rest = Substring(manifest)
            while let start = rest.range(of: kind) {
                rest = rest[start.upperBound...]
                guard let name = rest.range(of: "name: \""), rest[..<name.lowerBound].allSatisfy(\.isWhitespace) else { continue }
                let value = rest[name.upperBound...].prefix { $0 != "\"" }
                names.insert(String(value))
            }
        }
        return names
    }

    /// Every name in backticks in the first column of the Modules table.
    static func mappedNames() throws -> Set<String> {
        let map = try String(contentsOf: ProofSupport.packageRoot.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        guard let table = map.components(separatedBy: "## Modules").dropFirst().first else { return [] }
        var names: Set<String> = []
        for line in table.split(separator: "\n") where line.hasPrefix("| `") {
            let firstColumn = line.dropFirst(2).prefix { $0 != "|" }
            for part in firstColumn.split(separator: "`", omittingEmptySubsequences: false).enumerated() where part.offset % 2 == 1 {
                names.insert(String(part.element))
            }
        }
        return names
    }

    @Test("Every target of Package.swift has a row in docs/architecture.md's module table")
    func everyTargetIsMapped() throws {
        let targets = try ArchitectureMapTests.manifestTargets()
        #expect(targets.count > 20, "the manifest reader found only \(targets.sorted())")
        let mapped = try ArchitectureMapTests.mappedNames()
        // A name ending in `*` (`seed-*`) stands for every target it begins.
        let missing = targets.filter { target in !mapped.contains(target) && !mapped.contains { $0.hasSuffix("*") && target.hasPrefix($0.dropLast()) } }
        #expect(missing.isEmpty, "targets without a row in docs/architecture.md: \(missing.sorted())")
    }
}
