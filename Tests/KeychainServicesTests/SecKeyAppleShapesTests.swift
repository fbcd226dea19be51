import Crypto
import Foundation
import Testing
import KeychainServices

/// What Apple code reads back from SecKey calls has Apple's shape: the CFError of a failure
/// (domain, code, the text under kCFErrorDescriptionKey, the descriptions CoreFoundation derives
/// from it), the key-exchange parameters in each form Apple code writes them, and the
/// CoreFoundation data calls of Apple's CryptoKit-keys sample.
@Suite("SecKey: errors, parameters and CF data as Apple code reads them")
struct SecKeyAppleShapesTests {
    @Test("A SecKey error carries its text under kCFErrorDescriptionKey, and localizedDescription reads as CoreFoundation writes it")
    func errorShape() throws {
        let key = try ecKey()
        var error: Unmanaged<CFError>?
        #expect(SecKeyCreateSignature(key, .rsaSignatureMessagePKCS1v15SHA256, Data("x".utf8) as CFData, &error) == nil)
        let cfError = try #require(error?.takeRetainedValue())
        #expect(CFErrorGetDomain(cfError) as String == "NSOSStatusErrorDomain")
        #expect(CFErrorGetCode(cfError) == Int(errSecParam))
        let userInfo = try #require(CFErrorCopyUserInfo(cfError) as? [String: Any])
        let text = try #require(userInfo[kCFErrorDescriptionKey as String] as? String)
        #expect(!text.isEmpty)
        // Security's errors carry no localized description and count their nesting (SecCFError.c).
        #expect(userInfo[kCFErrorLocalizedDescriptionKey as String] == nil)
        #expect((userInfo["numberOfErrorsDeep"] as? NSNumber)?.intValue == 0)
        #expect(Set(userInfo.keys) == ["NSDescription", "numberOfErrorsDeep"])
        let expected = "The operation couldn\u{2019}t be completed. (OSStatus error -50 - \(text))"
        #expect((cfError as Error).localizedDescription == expected)
        #expect(CFErrorCopyDescription(cfError) as String == expected)
        #expect((cfError as NSError).description.hasPrefix("Error Domain=NSOSStatusErrorDomain Code=-50 \"\(text)\""))
        // CFErrorCreate with the same user info reads the same way.
        let made = CFErrorCreate(nil, kCFErrorDomainOSStatus, -50, [kCFErrorDescriptionKey as String: text] as CFDictionary)
        #expect((made! as Error).localizedDescription == expected)
    }

    @Test("Key exchange takes SecKeyKeyExchangeParameter keys as rawValue strings and as the struct itself")
    func keyExchangeParameters() throws {
        let alice = try ecKey(), bob = try ecKey()
        let info = Data("info".utf8)
        func derive(_ parameters: CFDictionary) -> Data? {
            var error: Unmanaged<CFError>?
            return SecKeyCopyKeyExchangeResult(alice, .ecdhKeyExchangeStandardX963SHA256, try! publicKey(bob), parameters, &error) as Data?
        }
        let byString = [SecKeyKeyExchangeParameter.requestedSize.rawValue as String: 32,
                        SecKeyKeyExchangeParameter.sharedInfo.rawValue as String: info] as [String: Any]
        let first = try #require(derive(byString as CFDictionary))
        #expect(first.count == 32)
        let byStruct: [SecKeyKeyExchangeParameter: Any] = [.requestedSize: 32, .sharedInfo: info]
        #expect(derive(byStruct as CFDictionary) == first)
        #expect(SecKeyKeyExchangeParameter.requestedSize.rawValue as String == "requestedSize")
        #expect(SecKeyKeyExchangeParameter(rawValue: "sharedInfo" as CFString) == .sharedInfo)
    }

    @Test("CFDataCreate and the CryptoKit sample's CFDataCreateWithBytesNoCopy(…, kCFAllocatorNull) give the bytes; bad input is nil")
    func coreFoundationData() throws {
        let key = P256.Signing.PrivateKey()
        let raw = key.rawRepresentation
        let viaSample: Data = raw.withUnsafeBytes { bytes in
            let cfdata = CFDataCreateWithBytesNoCopy(nil, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, kCFAllocatorNull)
            return ((cfdata as NSData?) as Data?) ?? Data()
        }
        #expect(viaSample == raw)
        #expect(kCFAllocatorNull != nil && kCFAllocatorNull !== kCFAllocatorDefault)
        let bytes: [UInt8] = [1, 2, 3]
        #expect(CFDataCreate(kCFAllocatorDefault, bytes, 3) as Data? == Data(bytes))
        #expect(CFDataCreate(nil, nil, 0) as Data? == Data())
        #expect(CFDataCreate(nil, bytes, -1) == nil)
        #expect(CFDataCreate(nil, nil, 4) == nil)
        // A buffer handed over with the default deallocator becomes the data's (freed here at once).
        let owned = UnsafeMutablePointer<UInt8>.allocate(capacity: 3)
        owned.initialize(from: bytes, count: 3)
        #expect(CFDataCreateWithBytesNoCopy(nil, owned, 3, nil) as Data? == Data(bytes))
        let creator: FourCharCode = 0x4B43_484E
        #expect(MemoryLayout<FourCharCode>.size == 4 && creator == UInt32(0x4B43_484E))
    }
}
