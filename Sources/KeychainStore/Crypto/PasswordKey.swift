import Foundation
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

    /// About 0.1 s and 32 MiB on a small server core.
    static func fresh() -> PasswordKeyParameters {
        PasswordKeyParameters(costLog2: 15, blockSize: 8, parallelism: 1,
                              salt: Data((0..<16).map { _ in UInt8.random(in: 0...255) }))
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
        guard (10...22).contains(costLog2), (1...32).contains(blockSize), (1...16).contains(parallelism) else {
            throw .decode("the stored password parameters are out of range")
        }
    }

    func deriveKey(password: String, deviceKey: DeviceKey, keychainID: Data) throws(KeychainStoreError) -> SymmetricKey {
        let stretched: SymmetricKey
        do {
            stretched = try KDF.Scrypt.deriveKey(from: Array(password.utf8), salt: salt, outputByteCount: 32,
                                                 rounds: 1 << Int(costLog2), blockSize: Int(blockSize),
                                                 parallelism: Int(parallelism))
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
                             parallelism: Int(parameters.parallelism))
}
