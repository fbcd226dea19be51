#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Crypto
import _CryptoExtras

/// Derivation of the key that wraps class keys when a keychain has a password: scrypt of the
/// password, then an HMAC keyed by the device key, so that guessing the password offline also
/// needs the device key ("tangled with the device key", as Apple tangles the passcode with the
/// hardware UID).
struct PasswordKeyParameters: Equatable {
    /// scrypt cost as a power of two (N = 2^costLog2).
    var costLog2: UInt8
    var blockSize: UInt32
    var parallelism: UInt32
    var salt: Data

    /// For a keychain password: about 0.1 s and 32 MiB on a small server core. Unlocking runs it,
    /// so it stays quick; an offline guess also needs the device key, which it is tangled with.
    static func fresh() -> PasswordKeyParameters {
        PasswordKeyParameters(costLog2: 15, blockSize: 8, parallelism: 1, salt: freshSalt())
    }

    /// For a backup: N = 2^17, four times the time and memory (128 MiB). A backup has no device
    /// key, so the password is all that stands between a copied backup and its items; each
    /// guess must cost more than a keychain unlock does.
    static func freshForBackup() -> PasswordKeyParameters {
        PasswordKeyParameters(costLog2: 17, blockSize: 8, parallelism: 1, salt: freshSalt())
    }

    private static func freshSalt() -> Data {
        Data((0..<16).map { _ in UInt8.random(in: 0...255) })
    }

    /// The costs a decoder accepts. The parameters come from bytes nobody has authenticated yet
    /// (a backup's header, the keychain's settings table), and scrypt allocates 128·r·N bytes
    /// before it can tell a right password from a wrong one: unbounded, a crafted file would make
    /// the reader allocate gigabytes or spin for hours before any check. The bounds leave room
    /// above what this version writes (2^15 and 2^17 with r = 8, p = 1) for stronger settings.
    static let costLog2Range: ClosedRange<UInt8> = 10...20
    static let blockSizeRange: ClosedRange<UInt32> = 1...32
    static let parallelismRange: ClosedRange<UInt32> = 1...4
    /// scrypt's working memory, 128·r·N bytes: at most 256 MiB.
    static let maximumMemory = 256 << 20
    /// Total work, N·r·p block mixes: at most four times a backup's 2^17·8.
    static let maximumWork = 1 << 22

    /// Whether scrypt with these costs stays within the bounds above.
    static func costsAreAcceptable(costLog2: UInt8, blockSize: UInt32, parallelism: UInt32) -> Bool {
        guard costLog2Range.contains(costLog2), blockSizeRange.contains(blockSize),
              parallelismRange.contains(parallelism) else { return false }
        let rounds = 1 << Int(costLog2)
        return 128 * Int(blockSize) * rounds <= maximumMemory
            && rounds * Int(blockSize) * Int(parallelism) <= maximumWork
    }

    /// The memory scrypt may use for these parameters: its working area and the p blocks.
    var memoryBound: Int {
        128 * Int(blockSize) * ((1 << Int(costLog2)) + Int(parallelism)) + 65536
    }

    var encoded: Data {
        var out = Data([1, costLog2])
        withUnsafeBytes(of: blockSize.littleEndian) { out.append(contentsOf: $0) }
        withUnsafeBytes(of: parallelism.littleEndian) { out.append(contentsOf: $0) }
        out.append(salt)
        return out
    }

    init(costLog2: UInt8, blockSize: UInt32, parallelism: UInt32, salt: Data) {
        self.costLog2 = costLog2
        self.blockSize = blockSize
        self.parallelism = parallelism
        self.salt = salt
    }

    init(encoded: Data) throws(KeychainStoreError) {
        var reader = ByteReader(encoded)
        guard try reader.byte() == 1 else { throw .decode("unknown password parameters version") }
        costLog2 = try reader.byte()
        blockSize = try reader.uint32()
        parallelism = try reader.uint32()
        salt = try reader.bytes(16)
        // Checked before anything is derived, so out-of-range costs never reach scrypt.
        guard PasswordKeyParameters.costsAreAcceptable(costLog2: costLog2, blockSize: blockSize, parallelism: parallelism) else {
            throw .decode("the stored password parameters ask for more memory or work than this version allows")
        }
    }

    func deriveKey(password: String, deviceKey: DeviceKey, keychainID: Data) throws(KeychainStoreError) -> SymmetricKey {
        let stretched: SymmetricKey
        do {
            stretched = try KDF.Scrypt.deriveKey(from: Array(password.utf8), salt: salt, outputByteCount: 32,
                                                 rounds: 1 << Int(costLog2), blockSize: Int(blockSize),
                                                 parallelism: Int(parallelism), maxMemory: memoryBound)
        } catch {
            throw .allocate("key derivation failed")
        }
        var mac = HMAC<SHA256>(key: deviceKey.key)
        mac.update(data: Array("swift-keychain/password-key/".utf8))
        mac.update(data: keychainID)
        mac.update(data: stretched.withUnsafeBytes { Data($0) })
        return SymmetricKey(data: Data(mac.finalize()))
    }
}

/// scrypt alone, for keys that must not depend on this device (backups).
func parametersStretch(_ password: String, _ parameters: PasswordKeyParameters) throws -> SymmetricKey {
    try KDF.Scrypt.deriveKey(from: Array(password.utf8), salt: parameters.salt, outputByteCount: 32,
                             rounds: 1 << Int(parameters.costLog2), blockSize: Int(parameters.blockSize),
                             parallelism: Int(parameters.parallelism), maxMemory: parameters.memoryBound)
}
