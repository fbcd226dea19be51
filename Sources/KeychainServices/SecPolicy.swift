#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
public import Foundation

/// The identifier of the basic X.509 policy: a chain to a trusted anchor, valid at the
/// verification time, with CA constraints respected.
nonisolated(unsafe) public let kSecPolicyAppleX509Basic: CFString = "1.2.840.113635.100.1.2"
/// The identifier of the TLS policy: basic X.509 plus the host name and extended key usage.
nonisolated(unsafe) public let kSecPolicyAppleSSL: CFString = "1.2.840.113635.100.1.3"
/// The identifier of the revocation policy (`SecPolicy.list` in Apple's sources numbers it 21).
nonisolated(unsafe) public let kSecPolicyAppleRevocation: CFString = "1.2.840.113635.100.1.21"
/// Property key: the policy's identifier (one of the `kSecPolicyApple…` values).
nonisolated(unsafe) public let kSecPolicyOid: CFString = "SecPolicyOid"
/// Property key: the name the policy checks (a TLS server's host name).
nonisolated(unsafe) public let kSecPolicyName: CFString = "SecPolicyName"
/// Property key: true when a TLS policy checks a client's certificate rather than a server's.
nonisolated(unsafe) public let kSecPolicyClient: CFString = "SecPolicyClient"

/// What a trust evaluation checks, as Security's `SecPolicyRef`. Only the policies pinning and
/// TLS code uses are provided: basic X.509, TLS and revocation (docs/keys-and-certificates.md
/// says what Apple's policies check that these do not).
public final class SecPolicy: NSObject, @unchecked Sendable {
    // Immutable: @unchecked only because NSObject is not Sendable.
    enum Kind: Hashable, Sendable {
        case basicX509
        /// `server`: the certificate is a server's (needs the serverAuth usage if it lists
        /// usages); otherwise a client's. `hostname`: the name it must be for, if any.
        case ssl(server: Bool, hostname: String?)
        /// `SecPolicyCreateRevocation`'s flags (`kSecRevocation…`).
        case revocation(flags: CFOptionFlags)
    }

    let kind: Kind

    init(_ kind: Kind) {
        self.kind = kind
        super.init()
    }

    /// Policies are equal when they check the same things.
    public override func isEqual(_ object: Any?) -> Bool { (object as? SecPolicy)?.kind == kind }
    public override var hash: Int { kind.hashValue }

    public override var description: String {
        switch kind {
        case .basicX509: return "<SecPolicy: oid: \(kSecPolicyAppleX509Basic)>"
        case .ssl(let server, let hostname):
            return "<SecPolicy: oid: \(kSecPolicyAppleSSL) name: \(hostname ?? "") client: \(!server)>"
        case .revocation(let flags):
            return "<SecPolicy: oid: \(kSecPolicyAppleRevocation) flags: \(flags)>"
        }
    }
}

extension SecPolicy: SecurityObject {
    static var securityTypeID: SecurityTypeID { .policy }
}

/// The type identifier of policies.
@discardableResult
public func SecPolicyGetTypeID() -> CFTypeID { SecurityTypeID.policy.rawValue }

/// The basic X.509 policy.
@discardableResult
public func SecPolicyCreateBasicX509() -> SecPolicy { SecPolicy(.basicX509) }

/// The TLS policy for a server's certificate (`server` true; its name must match `hostname`
/// when one is given) or a client's (`server` false).
@discardableResult
public func SecPolicyCreateSSL(_ server: Bool, _ hostname: CFString?) -> SecPolicy {
    SecPolicy(.ssl(server: server, hostname: hostname.map { $0 as String }))
}

/// A policy by identifier: `kSecPolicyAppleX509Basic`, `kSecPolicyAppleSSL` (with
/// `kSecPolicyName` and `kSecPolicyClient` among the properties), or `kSecPolicyAppleRevocation`
/// (which is `SecPolicyCreateRevocation(kSecRevocationUseAnyAvailableMethod)`, as in Apple's
/// `SecPolicy.c`); nil for any other.
@discardableResult
public func SecPolicyCreateWithProperties(_ policyIdentifier: CFTypeRef, _ properties: CFDictionary?) -> SecPolicy? {
    guard let identifier = policyIdentifier as? String else { return nil }
    switch identifier {
    case String(kSecPolicyAppleX509Basic):
        return SecPolicyCreateBasicX509()
    case String(kSecPolicyAppleSSL):
        let name = properties?.object(forKey: kSecPolicyName) as? String
        let client = (properties?.object(forKey: kSecPolicyClient)).flatMap(ValueConversion.boolean) ?? false
        return SecPolicy(.ssl(server: !client, hostname: name))
    case String(kSecPolicyAppleRevocation):
        return SecPolicyCreateRevocation(kSecRevocationUseAnyAvailableMethod)
    default:
        return nil
    }
}

/// The policy's identifier, and for TLS its host name and side.
@discardableResult
public func SecPolicyCopyProperties(_ policyRef: SecPolicy) -> CFDictionary? {
    let properties = NSMutableDictionary()
    switch policyRef.kind {
    case .basicX509:
        properties[kSecPolicyOid] = kSecPolicyAppleX509Basic
    case .ssl(let server, let hostname):
        properties[kSecPolicyOid] = kSecPolicyAppleSSL
        if let hostname { properties[kSecPolicyName] = hostname as NSString }
        if !server { properties[kSecPolicyClient] = kCFBooleanTrue }
    case .revocation:
        properties[kSecPolicyOid] = kSecPolicyAppleRevocation
    }
    return properties
}
#endif
