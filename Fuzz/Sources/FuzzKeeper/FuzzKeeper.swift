import Foundation
import FuzzSupport
@testable import KeychainServices
@testable import KeychainStore

/// The keeper's socket protocol on the fuzzer's bytes, as one message (the bytes after the
/// length prefix), taken the way keychaind takes it: ``KeeperRequestHandler/answer(_:file:identity:)``
/// reads it and runs the call on a scratch keychain as an application of one access group. A
/// request that reads must be written back to the same bytes, and every answer must read as an
/// answer. A crash or a sanitizer report is a finding; a refusal or a status is not.
@_cdecl("FuzzKeeper_main")
public func fuzzKeeperMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzKeeper)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKeeper(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let message = Array(UnsafeBufferPointer(start: data, count: size))
    if case .success(let call) = KeeperCall.read(message) {
        guard case .success(let again) = KeeperCall.read(call.bytes), again.bytes == call.bytes else {
            fatalError("a request written back does not read to the same bytes")
        }
    }
    let (answer, _) = KeeperRequestHandler.answer(message, file: Scratch.keychain, identity: Scratch.identity)
    guard (try? KeeperAnswer.read(answer)) != nil else { fatalError("the keeper wrote an answer that does not read") }
    Scratch.runs += 1
    if Scratch.runs % 512 == 0 { Scratch.empty() }
    return 0
}

enum Scratch {
    static let identity = ClientIdentity(accessGroups: ["fuzz.keeper"])
    nonisolated(unsafe) static var runs = 0

    static let directory = fuzzScratchFolder("fuzz-keeper")
    static let keychain: KeychainFile = {
        guard let file = try? KeychainFile.open(at: directory.appendingPathComponent("keeper.keychain-db"), deviceKey: .random()) else {
            fatalError("cannot create the keychain")
        }
        return file
    }()

    /// Deletes what the adds left, so that a long run does not slow down as the file grows.
    static func empty() {
        KeychainContext.withContext(KeychainContext(file: keychain, identity: identity)) {
            for itemClass in [kSecClassGenericPassword, kSecClassInternetPassword, kSecClassCertificate, kSecClassKey] {
                _ = SecItemDelete([kSecClass: itemClass] as CFDictionary)
            }
        }
    }
}
