#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Foundation
import KeychainCrypto

/// A SecKey call's failure: the status that goes into the CFError, and a reason in our words
/// (never key material).
struct KeyError: Error {
    let status: OSStatus
    let reason: String

    init(_ status: OSStatus, _ reason: String) {
        self.status = status
        self.reason = reason
    }

    static func parameter(_ reason: String) -> KeyError { KeyError(errSecParam, reason) }
    static func unimplemented(_ reason: String) -> KeyError { KeyError(errSecUnimplemented, reason) }
    /// Security's answer when a key cannot do what the algorithm names (SecKey.m's
    /// "algorithm not supported by the key").
    static func unsupported(_ algorithm: SecKeyAlgorithm) -> KeyError {
        KeyError(errSecParam, "\(algorithm.name) is not supported by this key")
    }

    /// A refusal of one of KeychainCrypto's primitives, with the status Security gives for it.
    init(_ failure: PrimitiveError) {
        switch failure.kind {
        case .parameter: self.init(errSecParam, failure.reason)
        case .unreadableKey: self.init(errSecDecode, failure.reason)
        }
    }

    /// Runs one of KeychainCrypto's primitives, its refusal turned into a KeyError.
    static func catching<Value>(_ body: () throws(PrimitiveError) -> Value) throws(KeyError) -> Value {
        do { return try body() } catch { throw KeyError(error) }
    }
}

/// How the public SecKey functions report: a value, or nil with the error in Apple's form, a
/// CFError of domain NSOSStatusErrorDomain whose code is the status and whose user info holds
/// the reason under `kCFErrorDescriptionKey`, handed over retained (the caller takes it with
/// `takeRetainedValue()`).
enum KeyCalls {
    static func run<Value>(_ error: UnsafeMutablePointer<Unmanaged<CFError>?>?, _ body: () throws(KeyError) -> Value) -> Value? {
        do {
            return try body()
        } catch let failure {
            error?.pointee = Unmanaged.passRetained(cfError(failure))
            return nil
        }
    }

    /// Shaped as Security's `SecError` makes it: the reason under `kCFErrorDescriptionKey`
    /// (``CoreFoundationError/security(_:_:)``).
    static func cfError(_ failure: KeyError) -> CFError {
        CoreFoundationError.security(failure.status, failure.reason)
    }
}
#endif
