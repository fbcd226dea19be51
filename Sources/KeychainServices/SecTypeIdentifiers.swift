#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
public import Foundation

/// The type identifiers of Security's object types, as `CFGetTypeID` reports them and the
/// `Sec…GetTypeID()` functions return them. The numbers are ours; only equality matters.
enum SecurityTypeIdentifier: CFTypeID {
    case certificate = 101, policy, trust, identity
}

/// A Security object type whose instances `CFGetTypeID` recognises.
protocol SecurityTypeIdentified: AnyObject {
    static var typeIdentifier: SecurityTypeIdentifier { get }
}

extension SecCertificate: SecurityTypeIdentified {
    static var typeIdentifier: SecurityTypeIdentifier { .certificate }
}
#endif
