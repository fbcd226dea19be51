import Crypto
import Foundation
@testable import KeychainStore
import KeychainTestSupport
import Testing

/// A backup's scrypt parameters are read before anything in the file is authenticated. These
/// tests hand the importer headers that ask for gigabytes or hours, and require a refusal
/// (`errSecDecode`) instead of the allocation; and they check that new backups are harder to
/// guess than a keychain password, while old backups still import.
@Suite("Backup scrypt costs: bounded on import, stronger on export")
struct BackupScryptCostTests {
    /// The 26-byte encoding of parameters, built by hand so that a test can ask for values the
    /// type itself would refuse.
    static func encodedParameters(costLog2: UInt8, blockSize: UInt32, parallelism: UInt32) -> Data {
        var bytes = Data([1, costLog2])
        withUnsafeBytes(of: blockSize.littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: parallelism.littleEndian) { bytes.append(contentsOf: $0) }
        bytes.append(Data(repeating: 7, count: 16))
        return bytes
    }

    /// A backup file whose header asks for the given costs, followed by a box of noise.
    static func craftedBackup(in directory: URL, costLog2: UInt8, blockSize: UInt32, parallelism: UInt32) throws -> URL {
        var file = KeychainFile.backupMagic
        file.append(encodedParameters(costLog2: costLog2, blockSize: blockSize, parallelism: parallelism))
        file.append(Data((0..<64).map { _ in UInt8.random(in: 0...255) }))
        let url = directory.appendingPathComponent("crafted-\(costLog2)-\(blockSize)-\(parallelism).backup")
        try file.write(to: url)
        return url
    }

    struct Costs: Sendable, CustomTestStringConvertible {
        let costLog2: UInt8
        let blockSize: UInt32
        let parallelism: UInt32
        let why: String
        var testDescription: String { "N=2^\(costLog2) r=\(blockSize) p=\(parallelism) (\(why))" }
    }

    static let hostileCosts: [Costs] = [
        Costs(costLog2: 24, blockSize: 8, parallelism: 1, why: "16 GiB"),
        Costs(costLog2: 22, blockSize: 32, parallelism: 1, why: "16 GiB within the old ranges"),
        Costs(costLog2: 14, blockSize: 0xFFFF_FFFF, parallelism: 1, why: "huge r"),
        Costs(costLog2: 14, blockSize: 8, parallelism: 0xFFFF_FFFF, why: "huge p"),
        Costs(costLog2: 20, blockSize: 8, parallelism: 1, why: "1 GiB"),
        Costs(costLog2: 17, blockSize: 8, parallelism: 16, why: "16 times a backup's work"),
    ]

    @Test("A backup whose header asks for too much memory or work is errSecDecode, before any derivation",
          arguments: hostileCosts)
    func hostileHeaderIsRefused(costs: Costs) throws {
        let keychain = try TestKeychain()
        let backup = try Self.craftedBackup(in: keychain.directory, costLog2: costs.costLog2,
                                            blockSize: costs.blockSize, parallelism: costs.parallelism)
        var status: Int32?
        do {
            try keychain.file.importBackup(from: backup, password: "any guess")
            Issue.record("the crafted backup imported")
        } catch {
            status = error.status
        }
        // Had scrypt run, the noise would have failed to open: errSecAuthFailed (-25293), or an
        // allocation failure. Only a refusal of the header itself is errSecDecode.
        #expect(status == SecStatus.decode)
    }

    @Test("The decoder accepts what this version writes and refuses costs outside its bounds")
    func decoderRanges() throws {
        let accepted: [(UInt8, UInt32, UInt32)] = [(15, 8, 1), (17, 8, 1), (10, 1, 1), (18, 8, 1), (20, 2, 1), (17, 8, 4), (13, 32, 1)]
        for (costLog2, blockSize, parallelism) in accepted {
            let bytes = Self.encodedParameters(costLog2: costLog2, blockSize: blockSize, parallelism: parallelism)
            #expect(throws: Never.self, "N=2^\(costLog2) r=\(blockSize) p=\(parallelism)") {
                _ = try PasswordKeyParameters(encoded: bytes)
            }
        }
        let refused: [(UInt8, UInt32, UInt32)] = [
            (9, 8, 1), (21, 1, 1), (19, 8, 1), (20, 8, 1), (24, 8, 1), (255, 8, 1),
            (15, 0, 1), (15, 33, 1), (15, 0xFFFF_FFFF, 1),
            (15, 8, 0), (15, 8, 5), (15, 8, 0xFFFF_FFFF), (18, 8, 3),
        ]
        for (costLog2, blockSize, parallelism) in refused {
            let bytes = Self.encodedParameters(costLog2: costLog2, blockSize: blockSize, parallelism: parallelism)
            #expect(performing: { _ = try PasswordKeyParameters(encoded: bytes) },
                    throws: { ($0 as? KeychainStoreError)?.status == SecStatus.decode })
        }
        // Every accepted combination fits the stated memory bound (128·r·N).
        for (costLog2, blockSize, _) in accepted {
            #expect(128 * Int(blockSize) << Int(costLog2) <= 256 << 20)
        }
    }

    @Test("A keychain password stays at N=2^15; a backup uses N=2^17 with r=8, p=1")
    func freshParameters() {
        let keychain = PasswordKeyParameters.fresh()
        #expect(keychain.costLog2 == 15)
        let backup = PasswordKeyParameters.freshForBackup()
        #expect(backup.costLog2 >= 17 && backup.blockSize == 8 && backup.parallelism == 1)
        #expect(backup.salt != PasswordKeyParameters.freshForBackup().salt)
    }

    @Test("A new backup's header asks for N of at least 2^17, and it imports")
    func newBackupHeader() throws {
        let source = try TestKeychain()
        _ = try source.file.add(.genericPassword, attributes: ["acct": .string("a"), "pdmn": .string("dk")],
                                secret: Data("s".utf8), identity: .unconfigured)
        let backup = source.directory.appendingPathComponent("new.backup")
        try source.file.exportBackup(to: backup, password: "backup password")
        let bytes = try Data(contentsOf: backup)
        let header = try PasswordKeyParameters(encoded: bytes.subdata(in: 8..<34))
        #expect(header.costLog2 >= 17)
        #expect(header.blockSize == 8 && header.parallelism == 1)
        let target = try TestKeychain()
        #expect(try target.file.importBackup(from: backup, password: "backup password") == 1)
    }

    @Test("A backup written with the older N=2^15 still imports")
    func olderBackupImports() throws {
        let source = try TestKeychain()
        _ = try source.file.add(.genericPassword, attributes: ["acct": .string("old"), "pdmn": .string("dk")],
                                secret: Data("old secret".utf8), identity: .unconfigured)
        let current = source.directory.appendingPathComponent("current.backup")
        try source.file.exportBackup(to: current, password: "pw")
        // Re-seal the same contents the way earlier versions did: N=2^15 in the header.
        let bytes = try Data(contentsOf: current)
        let newParameters = try PasswordKeyParameters(encoded: bytes.subdata(in: 8..<34))
        let box = try AES.GCM.SealedBox(combined: bytes.subdata(in: 34..<bytes.count))
        let plaintext = try AES.GCM.open(box, using: try parametersStretch("pw", newParameters),
                                         authenticating: KeychainFile.backupMagic)
        var oldParameters = PasswordKeyParameters.fresh()
        oldParameters.costLog2 = 15
        var old = KeychainFile.backupMagic
        old.append(oldParameters.encoded)
        old.append(try AES.GCM.seal(plaintext, using: try parametersStretch("pw", oldParameters),
                                    authenticating: KeychainFile.backupMagic).combined!)
        let oldURL = source.directory.appendingPathComponent("old.backup")
        try old.write(to: oldURL)

        let target = try TestKeychain()
        #expect(try target.file.importBackup(from: oldURL, password: "pw") == 1)
        let found = try target.file.find(ItemQuery(itemClass: .genericPassword), identity: .unconfigured, limit: 1, includeSecrets: true)
        #expect(found.first?.secret == Data("old secret".utf8))
    }
}
