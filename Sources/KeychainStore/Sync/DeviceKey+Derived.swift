package import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension DeviceKey {
    /// A key for one purpose outside the keychain file (such as the sync state file), derived
    /// from the device key so that it needs no storage of its own and opens nothing else.
    package func derivedKey(purpose: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: key, info: Data("swift-keychain \(purpose)".utf8), outputByteCount: 32)
    }
}
