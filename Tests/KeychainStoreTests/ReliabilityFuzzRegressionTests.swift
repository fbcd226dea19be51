import Foundation
@testable import KeychainStore
import Testing

/// Inputs the fuzz targets (Fuzz/) found, kept as tests so they stay fixed.
@Suite("Reliability: fuzzing findings stay fixed")
struct ReliabilityFuzzRegressionTests {
    static let key = try! Keybag.generate(deviceKey: .random(), keychainID: Data(count: 16)).classKeys[.always]!
    static let reference = Data(repeating: 7, count: 16)

    @Test("Whatever ItemSealer seals opens again, down to an empty plaintext (FuzzDecoders input 0xfd)")
    func emptyPlaintextRoundTrip() throws {
        let sealed = try ItemSealer.seal(Data(), part: .attributes, table: "genp", persistentRef: Self.reference,
                                         protection: .afterFirstUnlock, classKey: Self.key)
        // ItemSealer.split used to require more than 1 + 60 + 28 bytes, but an empty plaintext
        // seals to exactly that. The engine never seals fewer than 3 bytes, so no stored item was
        // affected.
        let opened = try ItemSealer.open(sealed, part: .attributes, table: "genp", persistentRef: Self.reference,
                                         protection: .afterFirstUnlock, classKey: Self.key)
        #expect(opened == Data())
    }

    @Test("Every seed and finding in the fuzz corpus decodes to a status or a value, never a crash",
          arguments: ["FuzzDecoders"])
    func corpusReplays(target: String) throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/corpus/\(target)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(!files.isEmpty)
        for name in files {
            let input = try Data(contentsOf: folder.appendingPathComponent(name))
            guard let selector = input.first else { continue }
            let bytes = input.dropFirst()
            switch selector % 5 {
            case 0: _ = try? AttributeCodec.decode(Data(bytes))
            case 1: _ = try? SecretCodec.decode(Data(bytes))
            case 2: _ = try? ItemSealer.open(Data(bytes), part: .secret, table: "genp", persistentRef: Self.reference,
                                             protection: .always, classKey: Self.key)
            case 3: continue
            default: _ = try? PasswordKeyParameters(encoded: Data(bytes))
            }
        }
    }
}
