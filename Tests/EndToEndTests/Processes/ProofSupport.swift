import Foundation
import KeychainTestSupport
import KeychainStore
import Testing

/// Helpers the end-to-end proofs share: where the build put its products, how to run a program
/// with a private environment, and a private set of keychain locations per test.
enum ProofSupport {
    /// The package's root folder: the nearest folder above this file that holds Package.swift,
    /// so that the proofs find it from whichever sub-folder of `Tests/EndToEndTests` they are in.
    static let packageRoot: URL = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/" && !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
            folder = folder.deletingLastPathComponent()
        }
        return folder
    }()

    /// The build products folder: the one holding the running test binary, since `swift test`
    /// builds the executables next to it; `.build/debug` otherwise.
    static let productsDirectory: URL = {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let folder = binary.deletingLastPathComponent()
        if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Modules").path) { return folder }
        return packageRoot.appendingPathComponent(".build/debug", isDirectory: true)
    }()

    /// The running test binary, for re-running it as a worker process.
    static var testBinary: URL { URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath() }

    /// An executable product of this package; the test fails if it was not built.
    static func product(_ name: String) throws -> URL {
        let url = productsDirectory.appendingPathComponent(name)
        try #require(FileManager.default.isExecutableFile(atPath: url.path),
                     "\(name) is not built at \(url.path); run `swift build --build-tests` first")
        return url
    }

    /// What a finished program left behind.
    struct Outcome: Sendable {
        var status: Int32
        var stdout: String
        var stderr: String
        var lines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }
    }

    /// Runs `executable` to completion with exactly `environment` (nothing inherited).
    static func run(_ executable: URL, _ arguments: [String] = [], environment: [String: String],
                    currentDirectory: URL? = nil) throws -> Outcome {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        let scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("swift-keychain-proof-io-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        // Files rather than pipes: a chatty program cannot fill a pipe and stall.
        let out = scratch.appendingPathComponent("stdout"), err = scratch.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let outHandle = try FileHandle(forWritingTo: out), errHandle = try FileHandle(forWritingTo: err)
        process.standardOutput = outHandle
        process.standardError = errHandle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let exit = process.waitForExit()
        try outHandle.close()
        try errHandle.close()
        return Outcome(status: exit.terminationStatus,
                       stdout: String(decoding: try Data(contentsOf: out), as: UTF8.self),
                       stderr: String(decoding: try Data(contentsOf: err), as: UTF8.self))
    }

    /// Finds `name` on the test process's PATH.
    static func tool(_ name: String) throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw ProofFailure("\(name) is not on PATH")
    }
}

/// A failure of the proof machinery itself (a missing tool, an unexpected file layout).
struct ProofFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A private home for one test: its own keychain file, device key, XDG folders and HOME, so that
/// programs run by the test touch nothing of the user's and nothing of other tests'.
final class HermeticHome: Sendable {
    let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory
            .appendingPathComponent("swift-keychain-proof-\(UUID().uuidString)", isDirectory: true)
        for folder in ["home", "config", "data", "keychain"] {
            // 0700 whatever the umask: keychain folders others could change are refused.
            try FileManager.default.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
    }

    var keychainURL: URL { root.appendingPathComponent("keychain/proof.keychain-db") }
    /// Where the default device key goes under this home's XDG_CONFIG_HOME.
    var deviceKeyURL: URL { root.appendingPathComponent("config/swift-keychain/device-key") }

    /// The environment a program gets: nothing from the test process but PATH.
    var environment: [String: String] {
        [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": root.appendingPathComponent("home").path,
            "XDG_CONFIG_HOME": root.appendingPathComponent("config").path,
            "XDG_DATA_HOME": root.appendingPathComponent("data").path,
            "SWIFT_KEYCHAIN_PATH": keychainURL.path,
            "LANG": "C.UTF-8",
        ]
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }
}

extension HermeticHome {
    /// Opens this home's keychain in the test process, as the programs run in it would: same
    /// file, same device key (created here if no program has created it yet).
    func openKeychain(identity: ClientIdentity = .unconfigured) throws -> KeychainContext {
        let key = try DeviceKey.load(from: deviceKeyURL, create: true)
        return KeychainContext(file: try KeychainFile.open(at: keychainURL, deviceKey: key), identity: identity)
    }
}
