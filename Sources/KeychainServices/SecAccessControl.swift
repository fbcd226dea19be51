#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
public import Foundation

/// Options for ``SecAccessControlCreateWithFlags(_:_:_:_:)``: which authentication an item needs,
/// and how several requirements combine. Mirrors Security's `SecAccessControlCreateFlags`.
public struct SecAccessControlCreateFlags: OptionSet, Sendable, Hashable {
    public let rawValue: CFOptionFlags
    public init(rawValue: CFOptionFlags) { self.rawValue = rawValue }

    /// The device owner must authenticate (biometry or the passcode).
    public static let userPresence = Self(rawValue: 1 << 0)
    /// Any enrolled biometry.
    public static let biometryAny = Self(rawValue: 1 << 1)
    /// Biometry as enrolled when the item was stored.
    public static let biometryCurrentSet = Self(rawValue: 1 << 3)
    /// The device passcode (here: the keychain password).
    public static let devicePasscode = Self(rawValue: 1 << 4)
    /// A paired companion device.
    public static let companion = Self(rawValue: 1 << 5)
    /// Either of several requirements suffices.
    public static let or = Self(rawValue: 1 << 14)
    /// All requirements are needed (the default for several).
    public static let and = Self(rawValue: 1 << 15)
    /// The requirements apply to using a private key rather than reading the item.
    public static let privateKeyUsage = Self(rawValue: 1 << 30)
    /// An application password is part of the item's key.
    public static let applicationPassword = Self(rawValue: 1 << 31)

    @available(*, deprecated, renamed: "biometryAny")
    public static let touchIDAny = biometryAny
    @available(*, deprecated, renamed: "biometryCurrentSet")
    public static let touchIDCurrentSet = biometryCurrentSet
    @available(*, deprecated, renamed: "companion")
    public static let watch = companion
}

/// An item's access control: its protection class plus the authentication it requires.
/// Create one with ``SecAccessControlCreateWithFlags(_:_:_:_:)``; store it with
/// `kSecAttrAccessControl`.
public final class SecAccessControl: NSObject, @unchecked Sendable {
    /// The `pdmn` string of the protection class.
    let protection: String
    let flags: SecAccessControlCreateFlags

    init(protection: String, flags: SecAccessControlCreateFlags) {
        self.protection = protection
        self.flags = flags
    }

    /// Requirements that need authentication (everything but the combinators and modifiers).
    var constraints: SecAccessControlCreateFlags {
        flags.intersection([.userPresence, .biometryAny, .biometryCurrentSet, .devicePasscode, .companion])
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? SecAccessControl else { return false }
        return other.protection == protection && other.flags == flags
    }

    public override var hash: Int { protection.hashValue ^ Int(truncatingIfNeeded: flags.rawValue) }

    public override var description: String {
        "<SecAccessControl protection=\(protection) flags=0x\(String(flags.rawValue, radix: 16))>"
    }
}

/// Accessibility values a SecAccessControl may carry (`f`, UntilReboot, is accepted here but not
/// when an item is written).
private let accessControlProtections: Set<String> = ["ak", "ck", "dk", "aku", "cku", "dku", "akpu", "f"]

/// Makes an access control object.
///
/// Mirrors Security's `SecAccessControlCreateWithFlags`, with its validation: the protection
/// must be one of the `kSecAttrAccessible…` values; `.or` with `.and`, `.biometryAny` with
/// `.biometryCurrentSet`, and `.userPresence` with any other requirement are `errSecParam`.
///
/// - Parameters:
///   - allocator: ignored; pass `nil` or `kCFAllocatorDefault`.
///   - protection: a `kSecAttrAccessible…` constant.
///   - flags: the requirements.
///   - error: receives a `CFError` (domain `NSOSStatusErrorDomain`) on failure; may be nil.
/// - Returns: the object, or nil on failure.
@discardableResult
public func SecAccessControlCreateWithFlags(
    _ allocator: CFAllocator?, _ protection: CFTypeRef, _ flags: SecAccessControlCreateFlags,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> SecAccessControl? {
    func fail(_ reason: String) -> SecAccessControl? {
        let cfError = NSError(domain: "NSOSStatusErrorDomain", code: Int(errSecParam), userInfo: [NSLocalizedDescriptionKey: reason])
        error?.pointee = Unmanaged.passRetained(cfError)
        return nil
    }
    guard let pdmn = protection as? String, accessControlProtections.contains(pdmn) else {
        return fail("the protection is not one of the kSecAttrAccessible values")
    }
    if flags.contains(.or) && flags.contains(.and) { return fail("or and and cannot be combined") }
    if flags.contains(.biometryAny) && flags.contains(.biometryCurrentSet) {
        return fail("biometryAny and biometryCurrentSet cannot be combined")
    }
    let others = flags.subtracting([.userPresence, .applicationPassword, .privateKeyUsage])
    if flags.contains(.userPresence) && !others.isEmpty {
        return fail("userPresence cannot be combined with other requirements")
    }
    return SecAccessControl(protection: pdmn, flags: flags)
}

/// The accessibility (`kSecAttrAccessible…` value) of an access control object.
@discardableResult
public func SecAccessControlGetProtection(_ access: SecAccessControl) -> CFTypeRef {
    access.protection as NSString
}
#endif
