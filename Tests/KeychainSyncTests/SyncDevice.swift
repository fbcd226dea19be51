#if Sync  // built only with the Sync trait (Package.swift)
import Foundation
import KeychainStore
@testable import KeychainSync
import KeychainTestSupport
import Testing

/// One machine of a test: its own folder with a keychain file and a device key file, reached
/// either in this process (``engine()``, ``file``) or through the `keychain-sync` executable in a
/// separate process (``cli(_:)``), as another machine would.
final class SyncDevice: Sendable {
    let folder: URL
    let name: String
    var keychainURL: URL { folder.appendingPathComponent("login.keychain-db") }
    var deviceKeyURL: URL { folder.appendingPathComponent("device-key") }
    let deviceKey: DeviceKey
    let file: KeychainFile

    init(_ name: String) throws {
        self.name = name
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("kc-sync-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        deviceKey = try DeviceKey.load(from: folder.appendingPathComponent("device-key"), create: true)
        file = try KeychainFile.open(at: folder.appendingPathComponent("login.keychain-db"), deviceKey: deviceKey)
    }

    deinit {
        file.forgetSharedUnlockState()
        try? FileManager.default.removeItem(at: folder)
    }

    func engine() throws -> SyncEngine {
        try SyncEngine(keychainURL: keychainURL, deviceKey: deviceKey)
    }

    static func executable(_ name: String) throws -> URL {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent(name),
            Bundle.main.bundleURL.appendingPathComponent(name),
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent(".build/debug/\(name)"),
        ]
        let found = candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
        return try #require(found, "\(name) is not built; run `swift build --build-tests` first")
    }

    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_KEYCHAIN_DEVICE_KEY_FILE"] = deviceKeyURL.path
        environment["SWIFT_KEYCHAIN_PATH"] = keychainURL.path
        // A round cut by a killed server ends within this many seconds at worst.
        environment["SWIFT_KEYCHAIN_SYNC_DEADLINE"] = "20"
        return environment
    }

    /// Runs `keychain-sync ARGUMENTS --keychain <this keychain>` as a separate process.
    @discardableResult
    func cli(_ arguments: [String], program: String = "keychain-sync") throws -> (status: Int32, output: String) {
        let path = try SyncDevice.executable(program).path
        let extra = program == "keychain-sync" ? ["--keychain", keychainURL.path] : []
        return try PostgresServer.run([path] + arguments + extra, environment: environment)
    }

    /// `keychain-sync now` in a separate process; the test fails if it does.
    @discardableResult
    func syncNow(sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let result = try cli(["now"])
        #expect(result.status == 0, "\(name): keychain-sync now failed: \(result.output)", sourceLocation: sourceLocation)
        return result.output
    }

    /// The first fingerprint in `output` (the device's, in what `join` prints), or the first
    /// one after `phrase`.
    static func fingerprint(in output: String, after phrase: String? = nil) -> String? {
        var text = Substring(output)
        if let phrase {
            guard let range = output.range(of: phrase) else { return nil }
            text = output[range.upperBound...]
        }
        return text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "," || $0 == ")" || $0 == "(" })
            .first { $0.count == 24 && $0.filter { $0 == "-" }.count == 4 }.map(String.init)
    }

    /// The group fingerprint a founding `join` printed.
    static func groupFingerprint(in output: String) -> String? {
        fingerprint(in: output, after: "the group's fingerprint is")
    }

    // MARK: Items

    static let service = "sync-test"

    func add(_ account: String, _ secret: String, synchronizable: Bool = true, accessible: String = "ak") throws {
        _ = try file.add(.genericPassword, attributes: [
            AttributeName.account: .string(account), AttributeName.service: .string(SyncDevice.service),
            AttributeName.synchronizable: .integer(synchronizable ? 1 : 0), AttributeName.accessible: .string(accessible),
        ], secret: Data(secret.utf8), identity: .administrator())
    }

    func query(_ account: String) -> ItemQuery {
        ItemQuery(itemClass: .genericPassword, filters: [AttributeName.account: .string(account), AttributeName.service: .string(SyncDevice.service)],
                  anySynchronizable: true)
    }

    func update(_ account: String, _ secret: String) throws {
        try file.update(query(account), changes: [:], secret: Data(secret.utf8), identity: .administrator())
    }

    func delete(_ account: String) throws {
        try file.delete(query(account), identity: .administrator())
    }

    /// The secret of the live item with this account, or nil.
    func secret(_ account: String) throws -> String? {
        let found = try file.find(query(account), identity: .administrator(), limit: 1, includeSecrets: true)
        return found.first?.secret.map { String(decoding: $0, as: UTF8.self) }
    }

    /// Every live item's account and secret, for comparing devices.
    func contents() throws -> [String: String] {
        let found = try file.find(ItemQuery(itemClass: .genericPassword, anySynchronizable: true), identity: .administrator(),
                                  limit: nil, includeSecrets: true)
        var result: [String: String] = [:]
        for item in found {
            result[item.attributes[AttributeName.account]?.stringValue ?? "?"] = item.secret.map { String(decoding: $0, as: UTF8.self) }
        }
        return result
    }
}
#endif
