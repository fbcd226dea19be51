import Crypto
import Foundation
import Testing
import KeychainServices
import KeychainStore
import KeychainTestSupport

/// Keys in the keychain as Apple keeps them (SecKey.m's SecKeyCreateRandomKey storing each half
/// with SecItemAdd and kSecValueRef; the keys class's attributes and primary key; the return
/// shapes of kSecReturnRef).
@Suite("Rules: keys in the keychain")
struct RulesKeysTests {
    static let tag = Data("com.example.signing".utf8)

    func permanentKey(tag: Data = tag, extra: [CFString: Any] = [:]) throws -> SecKey {
        var parameters: [CFString: Any] = [kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits: 256,
                                           kSecAttrIsPermanent: true, kSecAttrApplicationTag: tag, kSecAttrLabel: "signing key"]
        for (name, value) in extra { parameters[name] = value }
        return try makeKey(parameters)
    }

    @Test("A permanent key is two items with Apple's attributes; the private key comes back as a SecKey by tag")
    func storedPair() throws {
        let keychain = try TestKeychain()
        try keychain.run {
            let key = try permanentKey()
            let publicData = try externalRepresentation(publicKey(key))
            let all = copyMatching(item([kSecClass: kSecClassKey, kSecReturnAttributes: true, kSecMatchLimit: kSecMatchLimitAll]))
            let items = try #require(all.result as? [[String: Any]])
            #expect(items.count == 2)
            let privateItem = try #require(items.first { ($0[kSecAttrKeyClass as String] as? NSNumber)?.intValue == 1 })
            #expect((privateItem[kSecAttrKeyType as String] as? NSNumber)?.intValue == 73)
            #expect((privateItem[kSecAttrKeySizeInBits as String] as? NSNumber)?.intValue == 256)
            #expect((privateItem[kSecAttrEffectiveKeySize as String] as? NSNumber)?.intValue == 256)
            #expect(privateItem[kSecAttrApplicationLabel as String] as? Data == Data(Insecure.SHA1.hash(data: publicData)))
            #expect(privateItem[kSecAttrApplicationTag as String] as? Data == Self.tag)
            #expect(privateItem[kSecAttrLabel as String] as? String == "signing key")
            #expect((privateItem[kSecAttrCanSign as String] as? NSNumber)?.intValue == 1)
            #expect((privateItem[kSecAttrCanVerify as String] as? NSNumber)?.intValue == 0)
            #expect((privateItem[kSecAttrIsPermanent as String] as? NSNumber)?.intValue == 1)
            #expect(privateItem[kSecValueData as String] == nil)

            let found = copyMatching(item([kSecClass: kSecClassKey, kSecAttrApplicationTag: Self.tag,
                                           kSecAttrKeyClass: kSecAttrKeyClassPrivate, kSecReturnRef: true]))
            #expect(found.status == errSecSuccess)
            let stored = try #require(found.result as? SecKey)
            #expect(stored == key)
            let message = Data("through the keychain".utf8)
            let signature = try #require(sign(stored, .ecdsaSignatureMessageX962SHA256, message).0)
            #expect(verify(key, .ecdsaSignatureMessageX962SHA256, message, signature).0)
            // kSecReturnData gives the external representation.
            let data = copyMatching(item([kSecClass: kSecClassKey, kSecAttrApplicationTag: Self.tag,
                                          kSecAttrKeyClass: kSecAttrKeyClassPrivate, kSecReturnData: true]))
            #expect(data.result as? Data == (try externalRepresentation(key)))
            // By application label, the public half.
            let publicFound = copyMatching(item([kSecClass: kSecClassKey, kSecAttrApplicationLabel: Data(Insecure.SHA1.hash(data: publicData)),
                                                 kSecAttrKeyClass: kSecAttrKeyClassPublic, kSecReturnRef: true]))
            #expect((publicFound.result as? SecKey).map { try! externalRepresentation($0) } == publicData)
        }
    }

    @Test("The private key is sealed in the keychain file: its scalar never appears in the file's bytes")
    func sealed() throws {
        let keychain = try TestKeychain()
        try keychain.run {
            let key = try permanentKey()
            let scalar = try externalRepresentation(key).suffix(32)
            #expect(keychain.rawBytes().range(of: scalar) == nil)
        }
    }

    @Test("Return shapes: ref with attributes is a dictionary with v_Ref and class; an array for kSecMatchLimitAll")
    func returnShapes() throws {
        let keychain = try TestKeychain()
        try keychain.run {
            let key = try permanentKey()
            let both = copyMatching(item([kSecClass: kSecClassKey, kSecAttrKeyClass: kSecAttrKeyClassPrivate,
                                          kSecReturnRef: true, kSecReturnAttributes: true]))
            let dictionary = try #require(both.result as? [String: Any])
            #expect(dictionary[kSecClass as String] as? String == "keys")
            #expect((dictionary[kSecValueRef as String] as? SecKey) == key)
            #expect(dictionary[kSecValueData as String] == nil)
            let all = copyMatching(item([kSecClass: kSecClassKey, kSecReturnRef: true, kSecMatchLimit: kSecMatchLimitAll]))
            #expect((all.result as? [Any])?.count == 2)
            #expect((all.result as? [Any])?.allSatisfy { $0 is SecKey } == true)
        }
    }

    @Test("Primary key: the same key added twice is errSecDuplicateItem; another tag is another item; delete by tag")
    func duplicatesAndDelete() throws {
        let keychain = try TestKeychain()
        try keychain.run {
            let key = try ecKey()
            let add1 = add(item([kSecClass: kSecClassKey, kSecValueRef: key, kSecAttrApplicationTag: Self.tag]))
            #expect(add1 == errSecSuccess)
            #expect(add(item([kSecClass: kSecClassKey, kSecValueRef: key, kSecAttrApplicationTag: Self.tag])) == errSecDuplicateItem)
            // Without kSecClass the class comes from the ref.
            #expect(add(item([kSecValueRef: key, kSecAttrApplicationTag: Data("other".utf8)])) == errSecSuccess)
            // A label is not part of the primary key.
            #expect(add(item([kSecValueRef: key, kSecAttrApplicationTag: Self.tag, kSecAttrLabel: "x"])) == errSecDuplicateItem)
            #expect(matchCount(item([kSecClass: kSecClassKey])) == 2)
            // kSecValueRef in a query finds the key's items; kSecMatchItemList keeps only listed keys.
            #expect(matchCount(item([kSecClass: kSecClassKey, kSecValueRef: key])) == 2)
            let otherKey = try ecKey()
            #expect(exists(item([kSecClass: kSecClassKey, kSecValueRef: otherKey])) == errSecItemNotFound)
            #expect(exists(item([kSecClass: kSecClassKey, kSecMatchItemList: [otherKey]])) == errSecItemNotFound)
            #expect(matchCount(item([kSecClass: kSecClassKey, kSecMatchItemList: [key, otherKey]])) == 2)
            #expect(delete(item([kSecClass: kSecClassKey, kSecAttrApplicationTag: Self.tag])) == errSecSuccess)
            #expect(matchCount(item([kSecClass: kSecClassKey])) == 1)
            // A key ref on a password class is errSecParam; SecKeyCreateRandomKey reports a duplicate.
            #expect(add(PasswordClass.genp.base.with([kSecValueRef: key])) == errSecParam)
        }
    }

    @Test("A permanent pair whose public half is a duplicate fails with errSecDuplicateItem and stores neither half")
    func pairIsAllOrNothing() throws {
        let keychain = try TestKeychain()
        try keychain.run {
            // A caller's application label wins over the derived one, so the second public half
            // collides with the first.
            let parameters: [CFString: Any] = [
                kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits: 256,
                kSecAttrApplicationTag: Self.tag,
                kSecPrivateKeyAttrs: [kSecAttrIsPermanent as String: true],
                kSecPublicKeyAttrs: [kSecAttrIsPermanent as String: true, kSecAttrApplicationLabel as String: Data("fixed".utf8)],
            ]
            _ = try makeKey(parameters)
            #expect(matchCount(item([kSecClass: kSecClassKey])) == 2)
            var error: Unmanaged<CFError>?
            var dictionary: [String: Any] = [:]
            for (key, value) in parameters { dictionary[key as String] = value }
            #expect(SecKeyCreateRandomKey(dictionary as CFDictionary, &error) == nil)
            #expect(takeError(error).map(CFErrorGetCode) == Int(errSecDuplicateItem))
            #expect(matchCount(item([kSecClass: kSecClassKey])) == 2)
            // Only the public half is permanent when only its parameters say so.
            _ = try makeKey([kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits: 256,
                             kSecPublicKeyAttrs: [kSecAttrIsPermanent as String: true]])
            #expect(matchCount(item([kSecClass: kSecClassKey, kSecAttrKeyClass: kSecAttrKeyClassPublic])) == 2)
            #expect(matchCount(item([kSecClass: kSecClassKey, kSecAttrKeyClass: kSecAttrKeyClassPrivate])) == 1)
        }
    }

    @Test("A permanent key with an existing primary key fails the whole call with errSecDuplicateItem")
    func generationDuplicate() throws {
        let keychain = try TestKeychain()
        try keychain.run {
            let key = try ecKey()
            let data = try externalRepresentation(key)
            #expect(add(item([kSecValueRef: key])) == errSecSuccess)
            // The same key material cannot be generated again, so the duplicate is the public half
            // stored twice by hand.
            let pub = try publicKey(key)
            #expect(add(item([kSecValueRef: pub])) == errSecSuccess)
            #expect(add(item([kSecValueRef: pub])) == errSecDuplicateItem)
            #expect(data.count == 97)
        }
    }

    @Test("A key whose access control says privateKeyUsage is fetched without a password and asks for it when used")
    func presenceAtUse() throws {
        let keychain = try TestKeychain()
        try keychain.run {
            let access = try #require(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
                                                                      [.privateKeyUsage, .devicePasscode], nil))
            _ = try permanentKey(extra: [kSecAttrAccessControl: access])
            // No password is set on this keychain, so any authentication fails; fetching must not ask.
            let found = copyMatching(item([kSecClass: kSecClassKey, kSecAttrApplicationTag: Self.tag,
                                           kSecAttrKeyClass: kSecAttrKeyClassPrivate, kSecReturnRef: true]))
            #expect(found.status == errSecSuccess)
            let stored = try #require(found.result as? SecKey)
            let (signature, error) = sign(stored, .ecdsaSignatureMessageX962SHA256, Data("x".utf8))
            #expect(signature == nil)
            #expect(error.map(CFErrorGetCode) != nil && error.map(CFErrorGetCode) != Int(errSecSuccess))
            // Verification uses the public half and asks for nothing.
            #expect(SecKeyIsAlgorithmSupported(stored, .verify, .ecdsaSignatureMessageX962SHA256))
        }
    }

    @Test("A stored private key marked not extractable signs but never gives its bytes; its public half and other keys still do")
    func notExtractable() throws {
        let keychain = try TestKeychain()
        try keychain.run {
            let generated = try permanentKey(extra: [kSecPrivateKeyAttrs: [kSecAttrIsExtractable: false, kSecAttrIsSensitive: true]])
            // The key object SecKeyCreateRandomKey returned is the caller's own, in memory.
            #expect(SecKeyCopyExternalRepresentation(generated, nil) != nil)
            let found = copyMatching(item([kSecClass: kSecClassKey, kSecAttrApplicationTag: Self.tag,
                                           kSecAttrKeyClass: kSecAttrKeyClassPrivate, kSecReturnRef: true]))
            let stored = try #require(found.result as? SecKey)
            var error: Unmanaged<CFError>?
            #expect(SecKeyCopyExternalRepresentation(stored, &error) == nil)
            #expect(takeError(error).map { CFErrorGetCode($0) } == Int(errSecUnimplemented))
            let attributes = try #require(SecKeyCopyAttributes(stored) as? [String: Any])
            #expect(attributes[kSecValueData as String] == nil)
            #expect((attributes[kSecAttrIsExtractable as String] as? NSNumber)?.boolValue == false)
            #expect((attributes[kSecAttrIsSensitive as String] as? NSNumber)?.boolValue == true)
            let message = Data("still signs".utf8)
            let signature = try #require(sign(stored, .ecdsaSignatureMessageX962SHA256, message).0)
            #expect(verify(try publicKey(stored), .ecdsaSignatureMessageX962SHA256, message, signature).0)
            #expect(SecKeyCopyExternalRepresentation(try publicKey(stored), nil) != nil)

            let other = try permanentKey(tag: Data("other".utf8))
            let otherFound = copyMatching(item([kSecClass: kSecClassKey, kSecAttrApplicationTag: Data("other".utf8),
                                                kSecAttrKeyClass: kSecAttrKeyClassPrivate, kSecReturnRef: true]))
            let otherStored = try #require(otherFound.result as? SecKey)
            #expect(SecKeyCopyExternalRepresentation(otherStored, nil) as Data? == (try externalRepresentation(other)))
            #expect(((SecKeyCopyAttributes(otherStored) as? [String: Any])?[kSecAttrIsExtractable as String] as? NSNumber)?.boolValue == true)
        }
    }
}
