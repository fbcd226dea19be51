import Foundation
import Testing

/// Every Swift sample in the README, in docs/ and in the DocC catalogues type-checks, as written,
/// against the modules this build produced, so a reader can paste one into a `main.swift` and
/// have it compile.
///
/// The convention: each ```swift block is a complete `main.swift` (top-level code, its own
/// imports). A block that cannot be one (lines of a Package.swift, a piece of a function that
/// leans on the reader's app) starts with the line `// sample: fragment` and is not checked.
/// A sample that says `import Security` or `import LocalAuthentication` gets the module aliases
/// of docs/apple-code-on-linux.md, which make those names this package's modules.
@Suite("Documentation samples type-check")
struct DocSamplesTests {
    static let fragmentMarker = "// sample: fragment"

    /// One ```swift block: where it is, for the failure message, and its text.
    struct Sample: Sendable, CustomTestStringConvertible {
        var document: String
        var line: Int
        var code: String
        var testDescription: String { "\(document):\(line)" }
        var isFragment: Bool { code.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix(DocSamplesTests.fragmentMarker) }
    }

    /// README.md, docs/*.md and every article of every Sources/*/*.docc catalogue, relative to
    /// the package root.
    static func documents() -> [String] {
        let files = FileManager.default
        let root = ProofSupport.packageRoot
        var documents = ["README.md"]
        let docs = (try? files.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)) ?? []
        documents += docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
        let sources = (try? files.contentsOfDirectory(atPath: root.appendingPathComponent("Sources").path)) ?? []
        for module in sources.sorted() {
            let moduleFolder = "Sources/\(module)"
            let entries = (try? files.contentsOfDirectory(atPath: root.appendingPathComponent(moduleFolder).path)) ?? []
            for catalogue in entries.sorted() where catalogue.hasSuffix(".docc") {
                let folder = "\(moduleFolder)/\(catalogue)"
                let articles = files.subpaths(atPath: root.appendingPathComponent(folder).path) ?? []
                documents += articles.filter { $0.hasSuffix(".md") }.sorted().map { "\(folder)/\($0)" }
            }
        }
        return documents
    }

    /// The ```swift blocks of one Markdown text.
    static func samples(in text: String, document: String) -> [Sample] {
        var samples: [Sample] = []
        var current: (line: Int, lines: [String])?
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if var open = current {
                if trimmed.hasPrefix("```") {
                    samples.append(Sample(document: document, line: open.line, code: open.lines.joined(separator: "\n") + "\n"))
                    current = nil
                } else {
                    open.lines.append(line)
                    current = open
                }
            } else if trimmed == "```swift" {
                current = (index + 1, [])
            }
        }
        return samples
    }

    static func allSamples() -> [Sample] {
        documents().flatMap { document in
            let url = ProofSupport.packageRoot.appendingPathComponent(document)
            guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [Sample]() }
            return samples(in: text, document: document)
        }
    }

    @Test("The samples are found: the README's, and the DocC catalogues'")
    func samplesAreFound() {
        let samples = Self.allSamples()
        #expect(samples.contains { $0.document == "README.md" && !$0.isFragment })
        #expect(samples.contains { $0.document.contains(".docc/") && !$0.isFragment })
        #expect(samples.filter { !$0.isFragment }.count >= 10)
    }

    @Test("A sample type-checks as a main.swift", arguments: allSamples().filter { !$0.isFragment })
    func sampleTypeChecks(_ sample: Sample) throws {
        let home = try HermeticHome()
        let file = home.root.appendingPathComponent("main.swift")
        try sample.code.write(to: file, atomically: true, encoding: .utf8)
        // A module cannot be named both ways, so the aliases are given only to a sample that
        // uses Apple's module names.
        var flags: [String] = []
        if sample.code.contains("import Security\n") { flags += ImportPathTests.aliasFlags }
        if sample.code.contains("import LocalAuthentication\n") { flags += ImportPathTests.localAuthenticationAlias }
        let outcome = try ImportPathTests.typecheck(file, flags)
        #expect(outcome.status == 0, "\(sample.document):\(sample.line) does not compile:\n\(outcome.stderr)")
        withExtendedLifetime(home) {}
    }
}
