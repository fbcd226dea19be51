#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Foundation

/// `SecKeyCreateRandomKey` and `SecKeyCreateWithData`.
enum KeyGeneration {
    static func createRandomKey(_ parameters: NSDictionary) throws(KeyError) -> SecKey {
        throw .unimplemented("key generation is not implemented yet")
    }

    static func createWithData(_ data: Data, _ attributes: NSDictionary) throws(KeyError) -> SecKey {
        throw .unimplemented("reading keys is not implemented yet")
    }
}
#endif
