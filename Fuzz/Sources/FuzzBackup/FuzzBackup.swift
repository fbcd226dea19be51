import Crypto
import Foundation
import FuzzSupport
@testable import KeychainStore

/// Backup import on item lists from the fuzzer: each input is sealed into a well-formed backup
/// file (cheap scrypt parameters, a fixed password), so the fuzzer reaches the item-list decoder
/// and the merge behind the authentication, and imported into one keychain that lives for the
/// whole run. A crash or sanitizer report is a finding; a status is not. Afterwards the keychain
/// must still pass SQLite's integrity check.
/// The program's entry point under SwiftPM (see ``runFuzzer(_:_:_:)``).
@_cdecl("FuzzBackup_main")
public func fuzzBackupMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzBackup)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBackup(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let plaintext = Data(UnsafeBufferPointer(start: data, count: size))
    var file = KeychainFile.backupMagic
    file.append(Backup.parameters.encoded)
    guard let box = try? AES.GCM.seal(plaintext, using: Backup.key, authenticating: KeychainFile.backupMagic) else { return 0 }
    file.append(box.combined!)
    let url = Backup.directory.appendingPathComponent("input.backup")
    guard (try? file.write(to: url)) != nil else { fatalError("cannot write the backup file") }
    _ = try? Backup.keychain.importBackup(from: url, password: Backup.password)
    Backup.runs += 1
    if Backup.runs % 1000 == 0 {
        guard (try? Backup.keychain.integrityCheck()) == true else { fatalError("the keychain failed its integrity check") }
    }
    return 0
}

enum Backup {
    static let password = "fuzz"
    /// The cheapest parameters the decoder accepts, so each run costs about a millisecond.
    static let parameters = PasswordKeyParameters(costLog2: 10, blockSize: 1, parallelism: 1, salt: Data(repeating: 1, count: 16))
    nonisolated(unsafe) static var runs = 0
    static let key: SymmetricKey = {
        guard let key = try? parametersStretch(password, parameters) else { fatalError("scrypt failed") }
        return key
    }()
    static let directory = fuzzScratchFolder("fuzz")
    static let keychain: KeychainFile = {
        guard let file = try? KeychainFile.open(at: directory.appendingPathComponent("fuzz.keychain-db"), deviceKey: .random()) else {
            fatalError("cannot create the keychain")
        }
        return file
    }()
}
