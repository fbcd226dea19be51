import Foundation
import Testing

/// Apple-platform keychain code compiles on Linux unchanged in its two usual forms:
/// `import Security` (with `-module-alias Security=KeychainServices`) and Foundation-only files
/// (with KeychainServices imported implicitly). Each success has a negative control, the same
/// file compiled without the flag, which must fail for the expected reason — otherwise the
/// success would prove nothing.
@Suite("Import paths: Apple code type-checks against KeychainServices")
struct ImportPathTests {
    static let fixtures = ProofSupport.packageRoot.appendingPathComponent("Tests/Fixtures", isDirectory: true)
    static let aliasFlags = ["-module-alias", "Security=KeychainServices"]
    static let implicitFlags = ["-Xfrontend", "-import-module", "-Xfrontend", "KeychainServices"]

    /// The `-I` flags a client of KeychainServices needs: the Swift modules, and the C modules
    /// KeychainStore's interface pulls in (CSQLite's module map lives in the sources, SwiftPM
    /// writes the others into `<target>.build`).
    static func searchPaths() throws -> [String] {
        let products = ProofSupport.productsDirectory
        let modules = products.appendingPathComponent("Modules")
        try #require(FileManager.default.fileExists(atPath: modules.appendingPathComponent("KeychainServices.swiftmodule").path),
                     "KeychainServices.swiftmodule is not built in \(modules.path)")
        var paths = [modules.path, ProofSupport.packageRoot.appendingPathComponent("Sources/CSQLite").path]
        for entry in try FileManager.default.contentsOfDirectory(atPath: products.path).sorted() where entry.hasSuffix(".build") {
            let folder = products.appendingPathComponent(entry)
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("module.modulemap").path) {
                paths.append(folder.path)
            }
        }
        return paths.flatMap { ["-I", $0] }
    }

    /// Type-checks `file` in Swift 6 mode with `flags`; a library file unless it is a `main.swift`.
    static func typecheck(_ file: URL, _ flags: [String]) throws -> ProofSupport.Outcome {
        var arguments = ["-typecheck", "-swift-version", "6"]
        if file.lastPathComponent != "main.swift" { arguments.append("-parse-as-library") }
        arguments += flags + (try searchPaths()) + [file.path]
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = environment["TMPDIR"] ?? NSTemporaryDirectory()
        return try ProofSupport.run(try ProofSupport.tool("swiftc"), arguments, environment: environment)
    }

    /// A seed program's source as Apple code has it: `import Security` instead of ours, written
    /// to a private `main.swift`.
    static func seedAsAppleCode(_ folder: String) throws -> (file: URL, home: HermeticHome) {
        let source = try String(contentsOf: ProofSupport.packageRoot.appendingPathComponent("Examples/\(folder)/main.swift"), encoding: .utf8)
        try #require(source.contains("import KeychainServices\n"))
        let apple = source.replacingOccurrences(of: "import KeychainServices\n", with: "import Security\n")
        try #require(!apple.contains("KeychainServices\n") && apple.contains("import Security\n"))
        let home = try HermeticHome()
        let file = home.root.appendingPathComponent("main.swift")
        try apple.write(to: file, atomically: true, encoding: .utf8)
        return (file, home)
    }

    @Test("A seed program that says `import Security` type-checks with -module-alias Security=KeychainServices",
          arguments: ["SeedKeychainManager", "SeedInternetPassword", "SeedAccessControl"])
    func seedWithModuleAlias(folder: String) throws {
        let (file, home) = try Self.seedAsAppleCode(folder)
        let outcome = try Self.typecheck(file, Self.aliasFlags)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        withExtendedLifetime(home) {}
    }

    @Test("Negative control: the same seed without the alias fails, because there is no module Security",
          arguments: ["SeedKeychainManager", "SeedInternetPassword", "SeedAccessControl"])
    func seedWithoutModuleAlias(folder: String) throws {
        let (file, home) = try Self.seedAsAppleCode(folder)
        let outcome = try Self.typecheck(file, [])
        #expect(outcome.status != 0)
        #expect(outcome.stderr.contains("no such module 'Security'"), "\(outcome.stderr)")
        withExtendedLifetime(home) {}
    }

    @Test("Apple's idioms (CFTypeRef out-parameter, kCFBooleanTrue!, as CFString, the pointer form, SecAccessControl, CFError, SecCopyErrorMessageString) type-check under the alias")
    func appleIdiomsWithModuleAlias() throws {
        let outcome = try Self.typecheck(Self.fixtures.appendingPathComponent("AppleIdioms.swift"), Self.aliasFlags)
        #expect(outcome.status == 0, "\(outcome.stderr)")
    }

    @Test("Negative control: the idioms fixture without the alias fails on its `import Security`")
    func appleIdiomsWithoutModuleAlias() throws {
        let outcome = try Self.typecheck(Self.fixtures.appendingPathComponent("AppleIdioms.swift"), [])
        #expect(outcome.status != 0)
        #expect(outcome.stderr.contains("no such module 'Security'"), "\(outcome.stderr)")
    }

    @Test("LocalAuthentication code (LAContext, LAError, evaluatePolicy, kSecUseAuthenticationContext) type-checks with -module-alias LocalAuthentication=KeychainAuthentication")
    func localAuthenticationWithModuleAlias() throws {
        let outcome = try Self.typecheck(Self.fixtures.appendingPathComponent("LocalAuthenticationIdioms.swift"),
                                         Self.aliasFlags + Self.localAuthenticationAlias)
        #expect(outcome.status == 0, "\(outcome.stderr)")
    }

    @Test("Negative control: the LocalAuthentication fixture without its alias fails on `import LocalAuthentication`")
    func localAuthenticationWithoutModuleAlias() throws {
        let outcome = try Self.typecheck(Self.fixtures.appendingPathComponent("LocalAuthenticationIdioms.swift"), Self.aliasFlags)
        #expect(outcome.status != 0)
        #expect(outcome.stderr.contains("no such module 'LocalAuthentication'"), "\(outcome.stderr)")
    }

    static let localAuthenticationAlias = ["-module-alias", "LocalAuthentication=KeychainAuthentication"]

    @Test("A Foundation-only file using SecItem and kSec names type-checks when KeychainServices is imported implicitly")
    func implicitImport() throws {
        let outcome = try Self.typecheck(Self.fixtures.appendingPathComponent("ImplicitImport.swift"), Self.implicitFlags)
        #expect(outcome.status == 0, "\(outcome.stderr)")
    }

    @Test("Negative control: the Foundation-only file without the implicit import cannot find the keychain names")
    func implicitImportMissing() throws {
        let outcome = try Self.typecheck(Self.fixtures.appendingPathComponent("ImplicitImport.swift"), [])
        #expect(outcome.status != 0)
        #expect(outcome.stderr.contains("cannot find 'kSecClass' in scope"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("cannot find 'SecItemAdd' in scope"), "\(outcome.stderr)")
    }

    static let unusedResults = fixtures.appendingPathComponent("UnusedResults.swift")
    static let warningsAsErrors = ["-warnings-as-errors"]

    @Test("Calls whose results Apple code drops (SecItemDelete, SecRandomCopyBytes, SecKeyCopyPublicKey…) compile without a warning, as imported C functions do")
    func droppedResultsDoNotWarn() throws {
        let outcome = try Self.typecheck(Self.unusedResults, Self.aliasFlags + Self.warningsAsErrors)
        #expect(outcome.status == 0, "\(outcome.stderr)")
    }

    @Test("Control: the same fixture with one line that warns fails under -warnings-as-errors, so the check above is live")
    func droppedResultsControl() throws {
        let home = try HermeticHome()
        defer { withExtendedLifetime(home) {} }
        let file = home.root.appendingPathComponent("UnusedResultsControl.swift")
        let source = try String(contentsOf: Self.unusedResults, encoding: .utf8)
        try (source + "\nfunc warns() { let unused = 1 }\n").write(to: file, atomically: true, encoding: .utf8)
        let outcome = try Self.typecheck(file, Self.aliasFlags + Self.warningsAsErrors)
        #expect(outcome.status != 0)
        #expect(outcome.stderr.contains("never used"), "\(outcome.stderr)")
    }
}
