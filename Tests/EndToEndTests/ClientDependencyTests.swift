import Foundation
import Testing

/// An application that depends on this package for KeychainServices or KeychainKit resolves
/// what those libraries need, and not the rest of the system: the sync engine's postgres-nio and
/// SwiftNIO come in only with the Sync trait (Package.swift), which a client gets only by asking.
///
/// A fresh client package in a temporary folder depends on this one by path, as the README says,
/// and `swift package resolve` writes its Package.resolved (resolution only: building the client
/// would compile swift-crypto again for each run). What to expect is read from our manifest
/// through `swift package dump-package`, not written down here.
@Suite("A client of KeychainServices resolves only what it needs")
struct ClientDependencyTests {
    /// The parts of `swift package dump-package`'s output this test reads.
    struct Manifest: Decodable {
        struct Dependency: Decodable {
            struct Reference: Decodable { var identity: String }
            var sourceControl: [Reference]?
            var fileSystem: [Reference]?
            var identity: String? { (sourceControl ?? fileSystem)?.first?.identity }
        }
        struct Target: Decodable {
            var name: String
            var dependencies: [TargetDependency]
        }
        /// A target's dependency: a local target, a product of a package, or a name that is one
        /// of the two; with the condition, where one is given, that it is used under.
        struct TargetDependency: Decodable {
            struct Condition: Decodable { var traits: [String]? }
            enum Kind { case target, product, byName }
            var kind: Kind
            var name: String
            var package: String?
            var traits: [String]

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: Key.self)
                // Each case is an array: [name, package?, aliases?, condition?] for a product,
                // [name, condition?] for a target or a name.
                for (key, kind) in [(Key.product, Kind.product), (.target, .target), (.byName, .byName)] where container.contains(key) {
                    var fields = try container.nestedUnkeyedContainer(forKey: key)
                    self.kind = kind
                    name = try fields.decode(String.self)
                    package = kind == .product ? try fields.decodeIfPresent(String.self) : nil
                    if kind == .product { _ = try fields.decodeIfPresent([String: String].self) }
                    traits = (try fields.decodeIfPresent(Condition.self))?.traits ?? []
                    return
                }
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unknown target dependency"))
            }

            struct Key: CodingKey {
                var stringValue: String
                init(stringValue: String) { self.stringValue = stringValue }
                var intValue: Int? { nil }
                init?(intValue: Int) { nil }
                static let product = Key(stringValue: "product"), target = Key(stringValue: "target"), byName = Key(stringValue: "byName")
            }
        }
        var dependencies: [Dependency]
        var targets: [Target]

        /// The packages that targets use only under a trait: SwiftPM resolves them only when a
        /// client enables one of those traits.
        var traitOnlyPackages: Set<String> {
            let uses = targets.flatMap(\.dependencies).filter { $0.kind == .product }
            let unconditional = Set(uses.filter { $0.traits.isEmpty }.compactMap(\.package))
            return Set(uses.filter { !$0.traits.isEmpty }.compactMap(\.package)).subtracting(unconditional)
        }

        /// Every package this manifest declares.
        var declaredPackages: Set<String> { Set(dependencies.compactMap(\.identity)) }

        /// The packages whose products `roots` use, directly or through the local targets they
        /// depend on.
        func packagesUsed(by roots: [String]) -> Set<String> {
            let byName = Dictionary(uniqueKeysWithValues: targets.map { ($0.name, $0) })
            var seen: Set<String> = [], packages: Set<String> = [], queue = roots
            while let name = queue.popLast() {
                guard seen.insert(name).inserted, let target = byName[name] else { continue }
                for dependency in target.dependencies {
                    if let package = dependency.package { packages.insert(package) } else { queue.append(dependency.name) }
                }
            }
            return packages
        }
    }

    /// The package identities a Package.resolved pins.
    static func pins(_ url: URL) throws -> Set<String> {
        struct Resolved: Decodable {
            struct Pin: Decodable { var identity: String }
            var pins: [Pin]
        }
        return Set(try JSONDecoder().decode(Resolved.self, from: Data(contentsOf: url)).pins.map(\.identity))
    }

    /// The packages a checked-out package's manifest names by URL (its last path component, as
    /// SwiftPM names an identity), read from the text: an upper bound on what it brings along.
    static func packagesNamed(inManifestAt folder: URL) -> Set<String> {
        guard let text = try? String(contentsOf: folder.appendingPathComponent("Package.swift"), encoding: .utf8) else { return [] }
        var names: Set<String> = []
        for part in text.components(separatedBy: "url: \"").dropFirst() {
            guard let url = part.split(separator: "\"").first, let last = url.split(separator: "/").last else { continue }
            names.insert(String(last.hasSuffix(".git") ? last.dropLast(4) : last).lowercased())
        }
        return names
    }

    /// Runs `swift` with `arguments` in `folder`, with this process's environment (SwiftPM's
    /// cache and the machine's git settings for where packages come from).
    static func swift(_ arguments: [String], in folder: URL) throws -> ProofSupport.Outcome {
        try ProofSupport.run(try ProofSupport.tool("swift"), arguments, environment: ProcessInfo.processInfo.environment,
                             currentDirectory: folder)
    }

    @Test("A fresh client package that uses KeychainServices and KeychainKit resolves neither postgres-nio nor SwiftNIO")
    func clientResolvesOnlyTheLibrariesClosure() throws {
        let home = try HermeticHome()
        defer { withExtendedLifetime(home) {} }
        // Our manifest, read with a scratch folder of its own: the package's .build is this
        // test run's, and SwiftPM would wait for it.
        let dump = try Self.swift(["package", "dump-package", "--package-path", ProofSupport.packageRoot.path,
                                   "--scratch-path", home.root.appendingPathComponent("dump").path], in: home.root)
        try #require(dump.status == 0, "dump-package failed: \(dump.stderr)")
        let manifest = try JSONDecoder().decode(Manifest.self, from: Data(dump.stdout.utf8))
        let needed = manifest.packagesUsed(by: ["KeychainServices", "KeychainKit"])
        let traitOnly = manifest.traitOnlyPackages
        try #require(needed.contains("swift-crypto"), "the manifest reader found \(needed.sorted())")

        let client = home.root.appendingPathComponent("client")
        try FileManager.default.createDirectory(at: client.appendingPathComponent("Sources/App"), withIntermediateDirectories: true)
        try """
        // swift-tools-version: 6.1
        import PackageDescription

        let package = Package(
            name: "client",
            platforms: [.macOS(.v15)],
            dependencies: [.package(name: "swift-keychain", path: "\(ProofSupport.packageRoot.path)")],
            targets: [
                .executableTarget(name: "App", dependencies: [
                    .product(name: "KeychainServices", package: "swift-keychain"),
                    .product(name: "KeychainKit", package: "swift-keychain"),
                ]),
            ]
        )
        """.write(to: client.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try "import KeychainServices\nimport KeychainKit\n".write(to: client.appendingPathComponent("Sources/App/main.swift"),
                                                                  atomically: true, encoding: .utf8)
        let scratch = client.appendingPathComponent(".build")
        let resolve = try Self.swift(["package", "resolve", "--scratch-path", scratch.path], in: client)
        try #require(resolve.status == 0, "swift package resolve failed: \(resolve.stderr)")
        let resolved = try Self.pins(client.appendingPathComponent("Package.resolved"))

        // What the sync engine alone brings must not be there.
        let forbidden = traitOnly.union(["postgres-nio", "swift-nio"])
        #expect(resolved.isDisjoint(with: forbidden), "a client resolved \(resolved.intersection(forbidden).sorted()): \(resolved.sorted())")
        // What the two libraries use is, and nothing beyond the packages our manifest declares
        // outside the traits and the packages those declare in turn.
        #expect(needed.isSubset(of: resolved), "missing \(needed.subtracting(resolved).sorted()) from \(resolved.sorted())")
        let direct = manifest.declaredPackages.subtracting(traitOnly)
        let allowed = direct.reduce(into: direct) { allowed, package in
            allowed.formUnion(Self.packagesNamed(inManifestAt: scratch.appendingPathComponent("checkouts/\(package)")))
        }
        #expect(resolved.isSubset(of: allowed), "resolved beyond our untraited dependencies: \(resolved.subtracting(allowed).sorted())")
    }
}
