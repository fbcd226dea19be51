import Foundation
import Testing

/// KeychainKit must behave the same on Apple platforms, where KeychainServices is Apple's
/// Security: it may use the SecItem API only, never this package's engine.
@Suite("Portability")
struct PortabilityTests {
    static let sources: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/KeychainKit")

    static func sourceFiles() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: sources, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "swift" }
    }

    /// Crypto (swift-crypto) is allowed for the CryptoKit key types of KeychainKey+CryptoKit.swift:
    /// it is CryptoKit itself on Apple platforms, and none of this package's engine.
    @Test("KeychainKit imports only Foundation, Dispatch, Crypto, KeychainServices and KeychainAuthentication")
    func importsOnlyThePublicAPI() throws {
        let allowed: Set<String> = ["Foundation", "Dispatch", "Synchronization", "Crypto", "KeychainServices", "KeychainAuthentication"]
        let files = try Self.sourceFiles()
        #expect(!files.isEmpty)
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for line in text.split(separator: "\n") where line.hasPrefix("import ") || line.hasPrefix("public import ") || line.hasPrefix("@_exported import ") {
                let module = String(line.split(separator: " ").last ?? "")
                #expect(allowed.contains(module), "\(file.lastPathComponent) imports \(module)")
            }
        }
    }

    @Test("KeychainKit has no platform conditionals: the same code runs on Apple platforms and Linux")
    func noPlatformConditionals() throws {
        for file in try Self.sourceFiles() {
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(!text.contains("#if os("), "\(file.lastPathComponent)")
            #expect(!text.contains("KEYCHAIN_USE_SYSTEM_FRAMEWORKS"), "\(file.lastPathComponent)")
        }
    }
}
