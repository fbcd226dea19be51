#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Foundation

/// Security's own object types (keys, certificates, identities, policies, trust objects, access
/// controls) say which they are through this, so that ``CFGetTypeID(_:)`` tells them apart and
/// `SecKeyGetTypeID()` and its siblings have something to compare with. The numbers are ours;
/// only their equality matters, as for the Foundation types in CoreFoundationTypes.swift.
protocol SecurityObject: AnyObject {
    static var securityTypeID: SecurityTypeID { get }
}

/// The type identifier of each Security object type, in one place.
enum SecurityTypeID: CFTypeID {
    case accessControl = 101
    case key
    case certificate
    case identity
    case policy
    case trust
}

extension SecAccessControl: SecurityObject {
    static var securityTypeID: SecurityTypeID { .accessControl }
}

/// The type identifier of access control objects.
@discardableResult
public func SecAccessControlGetTypeID() -> CFTypeID { SecurityTypeID.accessControl.rawValue }
#endif
