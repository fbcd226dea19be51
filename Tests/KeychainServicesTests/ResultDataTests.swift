// The data objects of this package's own implementation (Apple's framework hands out its own).
#if !(os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
import Foundation
import Testing
@testable import KeychainServices
import KeychainTestSupport

/// The API hands out data as ``ResultData``, an `NSData` subclass whose bytes a caller's
/// `as? Data` reads quickly (every kind of result is checked to be one below). Callers must not be able to tell it from Foundation's `NSData`: every
/// way a program reads, compares, stores or archives a result has to give what an `NSData` with
/// the same bytes gives.
@Suite struct ResultDataTests {
    static let contents: [[UInt8]] = [[], [0], Array("pässwörd".utf8), (0..<1_024).map { UInt8($0 % 251) }]

    @Test("A result reads, compares, hashes and copies as an NSData of the same bytes", arguments: contents)
    func behavesAsNSData(_ bytes: [UInt8]) throws {
        let ours: NSData = Data(bytes).resultObject
        let plain = NSData(bytes: bytes, length: bytes.count)
        #expect(type(of: ours) == ResultData.self)

        #expect((ours as AnyObject as? Data) == Data(bytes))
        #expect(ours as Data == Data(bytes))
        #expect(Data(referencing: ours) == Data(bytes))
        #expect(ours.copiedBytes == Data(bytes))
        #expect(ours.length == bytes.count)
        var copied = [UInt8](repeating: 0xee, count: bytes.count)
        ours.getBytes(&copied, length: bytes.count)
        #expect(copied == bytes)

        #expect(ours.isEqual(plain) && plain.isEqual(ours) && ours.isEqual(to: Data(bytes)))
        #expect(ours.hash == plain.hash)
        #expect(AnyHashable(ours) == AnyHashable(plain))
        #expect(NSSet(array: [ours, plain]).count == 1)
        #expect((ours.copy() as? NSData)?.isEqual(plain) == true)
        #expect((ours.mutableCopy() as? NSMutableData)?.isEqual(plain) == true)
        #expect(ours.description == plain.description)
        #expect(ours.base64EncodedString() == plain.base64EncodedString())
        if bytes.count > 2 {
            let range = NSRange(location: 1, length: bytes.count - 2)
            #expect(ours.subdata(with: range) == plain.subdata(with: range))
        }
        #expect(coreFoundationBytes(ours) == bytes)
    }

    @Test("A result archives as NSData and is read back as one", arguments: contents)
    func archivesAsNSData(_ bytes: [UInt8]) throws {
        let archive = try NSKeyedArchiver.archivedData(withRootObject: Data(bytes).resultObject, requiringSecureCoding: true)
        let read = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: NSData.self, from: archive))
        #expect(type(of: read) != ResultData.self)
        #expect(read as Data == Data(bytes))
    }

    @Test("A result inside a dictionary bridges to Swift with its bytes")
    func insideADictionary() throws {
        let bytes = Data((0..<300).map { UInt8($0 % 256) })
        let dictionary: NSDictionary = ["v_Data": bytes.resultObject, "acct": "name"]
        let bridged = try #require(dictionary as? [String: Any])
        #expect(bridged["v_Data"] as? Data == bytes)
        #expect(ResultObjects.dictionary(dictionary)?["v_Data"] as? Data == bytes)
        // Compared outside the macro, whose expansion of this call draws an unused-result warning.
        let equalToFoundations = dictionary.isEqual(to: ["v_Data": NSData(data: bytes), "acct": "name"])
        #expect(equalToFoundations)
    }

    @Test("SecItemCopyMatching hands out its secret, attributes and references as ResultData")
    func theAPIHandsThemOut() throws {
        let secret = Data((0..<4_096).map { _ in UInt8.random(in: 0...255) })
        let keychain = try TestKeychain()
        try keychain.run {
            #expect(SecItemAdd([kSecClass: kSecClassGenericPassword, kSecAttrAccount: "result-data" as NSString,
                                kSecAttrGeneric: Data([1, 2, 3]) as NSData, kSecValueData: secret as NSData] as NSDictionary, nil) == errSecSuccess)
            var result: CFTypeRef?
            #expect(SecItemAdd([kSecClass: kSecClassGenericPassword, kSecAttrAccount: "added" as NSString,
                                kSecValueData: secret as NSData, kSecReturnData: kCFBooleanTrue!] as NSDictionary, &result) == errSecSuccess)
            #expect(result is ResultData)
            // An item added without data hands back empty data, of the same class.
            result = nil
            #expect(SecItemAdd([kSecClass: kSecClassGenericPassword, kSecAttrAccount: "no data" as NSString,
                                kSecReturnData: kCFBooleanTrue!] as NSDictionary, &result) == errSecSuccess)
            #expect(result is ResultData)
            #expect((result as? Data)?.isEmpty == true)
            result = nil
            #expect(SecItemCopyMatching([kSecClass: kSecClassGenericPassword, kSecAttrAccount: "result-data" as NSString,
                                         kSecReturnData: kCFBooleanTrue!] as NSDictionary, &result) == errSecSuccess)
            #expect(result is ResultData)
            #expect(result as? Data == secret)

            result = nil
            #expect(SecItemCopyMatching([kSecClass: kSecClassGenericPassword, kSecAttrAccount: "result-data" as NSString,
                                         kSecReturnData: kCFBooleanTrue!, kSecReturnAttributes: kCFBooleanTrue!,
                                         kSecReturnPersistentRef: kCFBooleanTrue!] as NSDictionary, &result) == errSecSuccess)
            let attributes = try #require(result as? NSDictionary)
            #expect(storedObject(attributes, kSecValueData as String) is ResultData)
            #expect(storedObject(attributes, kSecAttrGeneric as String) is ResultData)
            #expect(storedObject(attributes, kSecValuePersistentRef as String) is ResultData)
            let swift = try #require(attributes as? [String: Any])
            #expect(swift[kSecValueData as String] as? Data == secret)
            #expect(swift[kSecAttrGeneric as String] as? Data == Data([1, 2, 3]))

            // A reference handed out finds its item again when passed back.
            let reference = try #require(storedObject(attributes, kSecValuePersistentRef as String))
            result = nil
            #expect(SecItemCopyMatching([kSecValuePersistentRef: reference, kSecReturnData: kCFBooleanTrue!] as NSDictionary,
                                        &result) == errSecSuccess)
            #expect(result as? Data == secret)
        }
    }

    @Test("SecKey hands out its representations, signatures, ciphertexts, plaintexts and shared secrets as ResultData")
    func keysHandThemOut() throws {
        let parameters = [kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits: 256] as NSDictionary
        let ours = try #require(SecKeyCreateRandomKey(parameters, nil)), theirs = try #require(SecKeyCreateRandomKey(parameters, nil))
        let publicKey = try #require(SecKeyCopyPublicKey(ours)), theirPublicKey = try #require(SecKeyCopyPublicKey(theirs))
        #expect(SecKeyCopyExternalRepresentation(ours, nil) is ResultData)
        #expect(SecKeyCopyExternalRepresentation(publicKey, nil) is ResultData)
        let message = Data("message".utf8) as NSData
        let signature = try #require(SecKeyCreateSignature(ours, .ecdsaSignatureMessageX962SHA256, message, nil))
        #expect(signature is ResultData)
        #expect(SecKeyVerifySignature(publicKey, .ecdsaSignatureMessageX962SHA256, message, signature, nil))
        let ciphertext = try #require(SecKeyCreateEncryptedData(publicKey, .eciesEncryptionStandardX963SHA256AESGCM, message, nil))
        #expect(ciphertext is ResultData)
        let plaintext = try #require(SecKeyCreateDecryptedData(ours, .eciesEncryptionStandardX963SHA256AESGCM, ciphertext, nil))
        #expect(plaintext is ResultData)
        #expect(plaintext as Data == message as Data)
        let shared = try #require(SecKeyCopyKeyExchangeResult(ours, .ecdhKeyExchangeStandard, theirPublicKey, [:] as NSDictionary, nil))
        #expect(shared is ResultData)
        let attributes = try #require(SecKeyCopyAttributes(ours))
        #expect(storedObject(attributes, kSecAttrApplicationLabel as String) is ResultData)
        #expect(storedObject(attributes, kSecValueData as String) is ResultData)
    }

    @Test("SecCertificate, SecPKCS12Import and identity searches hand out their data as ResultData")
    func certificatesHandThemOut() throws {
        let fixtures = try OpenSSLFixtures()
        try fixtures.makeCA("ca", subject: "/CN=Result Data CA")
        try fixtures.makeLeaf("leaf", subject: "/CN=result.example", issuer: "ca")
        let der = try fixtures.data("leaf.der")
        let certificate = try #require(SecCertificateCreateWithData(nil, der as NSData))
        let copied = SecCertificateCopyData(certificate)
        #expect(copied is ResultData)
        #expect(copied as Data == der)
        #expect(SecCertificateCopySerialNumberData(certificate, nil) is ResultData)
        #expect(SecCertificateCopyNormalizedIssuerSequence(certificate) is ResultData)
        #expect(SecCertificateCopyNormalizedSubjectSequence(certificate) is ResultData)

        try fixtures.makePKCS12("leaf.p12", key: "leaf", password: "pw")
        var items: CFArray?
        #expect(SecPKCS12Import(try fixtures.data("leaf.p12") as NSData, [kSecImportExportPassphrase: "pw"] as NSDictionary, &items) == errSecSuccess)
        let imported = try #require(items)
        let item = try #require(imported.storedObjects()?.first as? NSDictionary)
        #expect(storedObject(item, kSecImportItemKeyID as String) is ResultData)

        // An identity kept in a keychain: its search hands out the key's data, the certificate's
        // and a reference.
        let identity = try #require(storedObject(item, kSecImportItemIdentity as String) as? SecIdentity)
        let keychain = try TestKeychain()
        try keychain.run {
            #expect(SecItemAdd([kSecValueRef: identity] as NSDictionary, nil) == errSecSuccess)
            var result: CFTypeRef?
            #expect(SecItemCopyMatching([kSecClass: kSecClassIdentity, kSecReturnData: kCFBooleanTrue!] as NSDictionary, &result) == errSecSuccess)
            #expect(result is ResultData)
            result = nil
            #expect(SecItemCopyMatching([kSecClass: kSecClassIdentity, kSecReturnData: kCFBooleanTrue!, kSecReturnAttributes: kCFBooleanTrue!,
                                         kSecReturnPersistentRef: kCFBooleanTrue!] as NSDictionary, &result) == errSecSuccess)
            let attributes = try #require(result as? NSDictionary)
            #expect(storedObject(attributes, kSecValueData as String) is ResultData)
            #expect(storedObject(attributes, "certdata") is ResultData)
            #expect(storedObject(attributes, kSecValuePersistentRef as String) is ResultData)
            #expect(ResultObjects.dictionary(attributes)?["certdata"] as? Data == der)
        }
    }
}
#endif
