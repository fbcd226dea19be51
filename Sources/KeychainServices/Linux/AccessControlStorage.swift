#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Foundation
import KeychainStore

/// How an access control is kept with its item (the item's `accc`), and what it asks of a reader.
///
/// Stored form (ours; Apple keeps a DER property list, which nothing outside the keychain reads):
/// version byte 1 ‖ the flags as a little-endian UInt64 ‖ the protection's `pdmn` in UTF-8.
extension SecAccessControl {
    var encoded: Data {
        var out = Data([1])
        withUnsafeBytes(of: UInt64(flags.rawValue).littleEndian) { out.append(contentsOf: $0) }
        out.append(Data(protection.utf8))
        return out
    }

    /// The object stored as `data`, or nil when the bytes are not one.
    static func decoded(_ data: Data) -> SecAccessControl? {
        let bytes = [UInt8](data)
        guard bytes.count > 9, bytes[0] == 1 else { return nil }
        var raw: UInt64 = 0
        for (offset, byte) in bytes[1..<9].enumerated() { raw |= UInt64(byte) << (8 * UInt64(offset)) }
        guard let protection = String(bytes: bytes[9...], encoding: .utf8) else { return nil }
        return SecAccessControl(protection: protection, flags: SecAccessControlCreateFlags(rawValue: CFOptionFlags(raw)))
    }

    /// Whether reading the item's secret needs authentication. With `.privateKeyUsage` the
    /// requirements guard operations with a private key instead of reading the item, and a password
    /// item has no such operations, so nothing is asked for.
    var requiresAuthentication: Bool { !constraints.isEmpty && !flags.contains(.privateKeyUsage) }

    /// The engine's form.
    var itemAccessControl: ItemAccessControl {
        ItemAccessControl(encoded: encoded, requiresAuthentication: requiresAuthentication)
    }
}

/// What satisfies an access control on this platform. The keychain password stands for the
/// device passcode; biometry only when simulated (KeychainAuthenticators.simulatedBiometry); a
/// companion device never.
enum PresenceRequirement: Equatable {
    /// Nothing to prove.
    case none
    /// The keychain password, asked for under this policy.
    case password(biometric: Bool)
    /// Nothing available here can satisfy it: biometry on a machine without it, a companion.
    case unsatisfiable

    init(_ control: SecAccessControl, biometryAvailable: Bool) {
        guard control.requiresAuthentication else { self = .none; return }
        let constraints = control.constraints
        // Each requirement: can it be met here, and by biometry (simulated) rather than the password?
        var options: [(met: Bool, biometric: Bool)] = []
        if constraints.contains(.userPresence) { options.append((true, false)) }
        if constraints.contains(.devicePasscode) { options.append((true, false)) }
        if constraints.contains(.biometryAny) { options.append((biometryAvailable, true)) }
        if constraints.contains(.biometryCurrentSet) { options.append((biometryAvailable, true)) }
        if constraints.contains(.companion) { options.append((false, false)) }
        // Several requirements are all needed unless `.or` says any one will do.
        let met = control.flags.contains(.or) ? options.contains(where: \.met) : options.allSatisfy(\.met)
        guard met else { self = .unsatisfiable; return }
        // One password prompt proves every requirement that can be met; it is biometric only
        // when nothing but biometry is asked for.
        self = .password(biometric: options.allSatisfy(\.biometric))
    }
}
#endif
