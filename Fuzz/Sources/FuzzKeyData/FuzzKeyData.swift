import Foundation
import FuzzSupport
import KeychainServices

/// SecKeyCreateWithData on the fuzzer's bytes: the first byte picks the type (EC or RSA) and the
/// class (public or private), the rest is the external representation (X9.63 or PKCS#1 DER). A
/// key that is made must export the bytes it was made from, and answer its attributes, block
/// size and a signature check without trapping; a SecKeyAlgorithm made of bytes is tried on it.
/// A crash or a sanitizer report is a finding; a nil key is not.
@_cdecl("FuzzKeyData_main")
public func fuzzKeyDataMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzKeyData)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKeyData(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let selector = input.byte()
    let nameLength = Int(input.byte() % 48)
    let name = String(decoding: input.bytes(nameLength), as: UTF8.self)
    let keyData = Data(input.rest())
    let attributes: [String: Any] = [
        kSecAttrKeyType as String: selector & 1 == 0 ? kSecAttrKeyTypeECSECPrimeRandom : kSecAttrKeyTypeRSA,
        kSecAttrKeyClass as String: selector & 2 == 0 ? kSecAttrKeyClassPublic : kSecAttrKeyClassPrivate,
    ]
    guard let key = SecKeyCreateWithData(keyData as CFData, attributes as CFDictionary, nil) else { return 0 }
    guard let exported = SecKeyCopyExternalRepresentation(key, nil) as Data?, !exported.isEmpty else {
        fatalError("a key made from data has no external representation")
    }
    _ = SecKeyCopyAttributes(key)
    _ = SecKeyGetBlockSize(key)
    _ = SecKeyCopyPublicKey(key)
    let algorithm = SecKeyAlgorithm(rawValue: ("algid:" + name) as CFString)
    for operation in [SecKeyOperationType.sign, .verify, .encrypt, .decrypt, .keyExchange] {
        _ = SecKeyIsAlgorithmSupported(key, operation, algorithm)
    }
    _ = SecKeyVerifySignature(key, algorithm, Data("m".utf8) as CFData, keyData.prefix(64) as CFData, nil)
    _ = SecKeyVerifySignature(key, .ecdsaSignatureMessageX962SHA256, Data("m".utf8) as CFData, keyData.prefix(72) as CFData, nil)
    return 0
}
