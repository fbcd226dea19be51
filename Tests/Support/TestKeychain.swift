public import Foundation
public import KeychainStore
import KeychainLocking

/// A private keychain in a fresh temporary folder, with its own random device key, for tests.
/// SecItem calls made inside ``run(_:)`` go to it and to nothing else, so tests can run in
/// parallel.
public final class TestKeychain: Sendable {
    public let directory: URL
    public let file: KeychainFile
    public let context: KeychainContext
    /// The keychain's device key, for opening the file a second time.
    public let deviceKey: DeviceKey

    /// With `deviceKeyOnDisk`, the device key is kept in ``deviceKeyFile`` rather than only in
    /// memory, so that a program the test runs (keychainctl, with `SWIFT_KEYCHAIN_PATH` and
    /// `SWIFT_KEYCHAIN_DEVICE_KEY_FILE`) can open the same keychain.
    public init(identity: ClientIdentity = .unconfigured, name: String = "test.keychain-db", deviceKeyOnDisk: Bool = false) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("swift-keychain-tests-\(UUID().uuidString)", isDirectory: true)
        deviceKey = deviceKeyOnDisk ? try DeviceKey.load(from: directory.appendingPathComponent(Self.deviceKeyFileName), create: true) : .random()
        file = try KeychainFile.open(at: directory.appendingPathComponent(name), deviceKey: deviceKey)
        context = KeychainContext(file: file, identity: identity)
    }

    /// With `SWIFT_KEYCHAIN_TEST_SERVED=1`, the in-process keeper of each identity the test runs
    /// as: the synchronous ``run(_:)`` calls go through it instead of opening the file.
    private let keepers = Locked<[ClientIdentity: InProcessKeeper]>([:])

    private func keeper(for identity: ClientIdentity) -> InProcessKeeper? {
        guard InProcessKeeper.isOn else { return nil }
        return keepers.withLock { keepers in
            if let keeper = keepers[identity] { return keeper }
            let socket = directory.appendingPathComponent("keeper-\(keepers.count)/socket").path
            guard let keeper = try? InProcessKeeper(file: file, identity: identity, socketPath: socket) else { return nil }
            keepers[identity] = keeper
            return keeper
        }
    }

    private static let deviceKeyFileName = "device-key"

    /// Where the device key is when the keychain was made with `deviceKeyOnDisk`.
    public var deviceKeyFile: URL { directory.appendingPathComponent(Self.deviceKeyFileName) }

    /// The same keychain file seen by another identity.
    public func context(as identity: ClientIdentity) -> KeychainContext {
        KeychainContext(file: file, identity: identity)
    }

    public func run<T>(_ body: () throws -> T) rethrows -> T {
        if let keeper = keeper(for: context.identity) { return try keeper.run(body) }
        return try KeychainContext.withContext(context, body)
    }

    public func run<T>(as identity: ClientIdentity, _ body: () throws -> T) rethrows -> T {
        if let keeper = keeper(for: identity) { return try keeper.run(body) }
        return try KeychainContext.withContext(context(as: identity), body)
    }

    public func run<T>(_ body: () async throws -> T) async rethrows -> T {
        try await KeychainContext.withContext(context, body)
    }

    /// The raw bytes of the keychain file and its WAL, for at-rest checks.
    public func rawBytes() -> Data {
        var bytes = Data()
        for suffix in ["", "-wal", "-shm"] {
            if let data = FileManager.default.contents(atPath: file.url.path + suffix) { bytes.append(data) }
        }
        return bytes
    }

    deinit {
        file.forgetSharedUnlockState()
        try? FileManager.default.removeItem(at: directory)
    }
}
