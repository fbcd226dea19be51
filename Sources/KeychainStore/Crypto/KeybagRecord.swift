#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Crypto

/// The keybag as the file keeps it: one record, stored in `settings` under
/// ``settingName``, authenticated as a whole by a MAC keyed from the device key.
///
/// Keeping every key wrapping, every check value and every setting the engine trusts in one
/// authenticated record means none of them can be swapped, deleted or mixed with rows of an
/// earlier era (for instance, the device-key wrappings from before a password was set) by
/// someone without the device key. The `generation` grows with every write, so processes notice
/// a keybag changed by another process.
struct KeybagRecord: Equatable {
    static let settingName = "keybag"
    static let formatVersion: UInt8 = 1
    static let macLength = 32

    /// One protection class's key, wrapped.
    struct ClassEntry: Equatable {
        var wrapping: Keybag.Wrapping
        /// AES-GCM box of the class key (60 bytes).
        var wrapped: Data
        /// ``Keybag/checkValue(_:for:keychainID:)`` of the class key: a key offered by the kernel
        /// keyring is used only if it matches. Empty in a keychain upgraded from schema 4 until its
        /// first unlock with the password, since the upgrade cannot open password-wrapped keys.
        var check: Data
    }

    /// The presence key (``PresenceCredential``): its private half wrapped by the password key,
    /// its public half, and a tag of the public half under each class key.
    struct PresenceEntry: Equatable {
        var wrappedPrivate: Data
        var publicKey: Data
        /// ``Keybag/presenceTag(_:publicKey:for:keychainID:)`` per class. A protected item is
        /// sealed to the public key only if the tag of its class matches, so replacing the public
        /// key takes that class's key, not just the device key.
        var tags: [ProtectionClass: Data]
    }

    var generation: UInt64
    var wrappedIndexKey: Data
    var classes: [ProtectionClass: ClassEntry]
    /// The encoded ``PasswordKeyParameters``; nil without a password.
    var passwordParameters: Data?
    /// The idle timeout in seconds; nil locks only on request.
    var lockTimeout: UInt32?
    var presence: PresenceEntry?

    /// The record followed by its MAC.
    func sealed(deviceKey: DeviceKey, keychainID: Data) -> Data {
        let body = encoded()
        var out = Data(body)
        out.append(contentsOf: Self.mac(body, deviceKey: deviceKey, keychainID: keychainID))
        return out
    }

    /// Reads and authenticates a sealed record. A MAC that does not verify means another device
    /// key, or a keybag changed by someone without this one.
    static func open(_ sealed: Data, deviceKey: DeviceKey, keychainID: Data) throws(KeychainStoreError) -> KeybagRecord {
        guard sealed.count > macLength else { throw .decode("the keychain's keybag is damaged") }
        let body = [UInt8](sealed.dropLast(macLength))
        let expected = mac(body, deviceKey: deviceKey, keychainID: keychainID)
        guard constantTimeEqual(expected, [UInt8](sealed.suffix(macLength))) else {
            throw .notAvailable("the device key does not open this keychain (wrong device key, or the keybag was modified)")
        }
        return try decode(body)
    }

    /// The generation of a sealed record, read without authenticating it (to notice a change).
    static func generation(of sealed: Data) -> UInt64? {
        guard sealed.count >= 9, sealed.first == formatVersion else { return nil }
        return sealed.dropFirst().prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
    }

    private static func mac(_ body: [UInt8], deviceKey: DeviceKey, keychainID: Data) -> [UInt8] {
        var derivation = HMAC<SHA256>(key: deviceKey.key)
        derivation.update(data: Array("swift-keychain/keybag-mac/".utf8))
        derivation.update(data: keychainID)
        let macKey = SymmetricKey(data: Data(derivation.finalize()))
        return Array(HMAC<SHA256>.authenticationCode(for: body, using: macKey))
    }

    // MARK: Encoding

    private func encoded() -> [UInt8] {
        var out: [UInt8] = [Self.formatVersion]
        for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: generation >> UInt64(shift))) }
        Self.appendBlob(passwordParameters ?? Data(), to: &out)
        withUnsafeBytes(of: (lockTimeout ?? 0).bigEndian) { out += $0 }
        Self.appendBlob(wrappedIndexKey, to: &out)
        let sortedClasses = classes.sorted { $0.key.rawValue < $1.key.rawValue }
        out.append(UInt8(sortedClasses.count))
        for (protection, entry) in sortedClasses {
            out.append(UInt8(protection.rawValue))
            out.append(UInt8(entry.wrapping.rawValue))
            Self.appendBlob(entry.wrapped, to: &out)
            Self.appendBlob(entry.check, to: &out)
        }
        if let presence {
            out.append(1)
            Self.appendBlob(presence.wrappedPrivate, to: &out)
            Self.appendBlob(presence.publicKey, to: &out)
            let sortedTags = presence.tags.sorted { $0.key.rawValue < $1.key.rawValue }
            out.append(UInt8(sortedTags.count))
            for (protection, tag) in sortedTags {
                out.append(UInt8(protection.rawValue))
                Self.appendBlob(tag, to: &out)
            }
        } else {
            out.append(0)
        }
        return out
    }

    private static func decode(_ body: [UInt8]) throws(KeychainStoreError) -> KeybagRecord {
        var reader = ByteReader(Data(body))
        guard try reader.byte() == formatVersion else { throw .decode("the keychain's keybag has an unknown format") }
        let generation = try reader.uint64BigEndian()
        let parameters = try blob(&reader)
        let timeout = try reader.uint32BigEndian()
        let indexKey = try blob(&reader)
        var classes: [ProtectionClass: ClassEntry] = [:]
        for _ in 0..<Int(try reader.byte()) {
            let protection = try protectionClass(&reader)
            guard let wrapping = Keybag.Wrapping(rawValue: Int64(try reader.byte())) else {
                throw .decode("the keychain's keybag is damaged")
            }
            classes[protection] = ClassEntry(wrapping: wrapping, wrapped: try blob(&reader), check: try blob(&reader))
        }
        var presence: PresenceEntry?
        if try reader.byte() == 1 {
            let wrappedPrivate = try blob(&reader)
            let publicKey = try blob(&reader)
            var tags: [ProtectionClass: Data] = [:]
            for _ in 0..<Int(try reader.byte()) {
                let protection = try protectionClass(&reader)
                tags[protection] = try blob(&reader)
            }
            presence = PresenceEntry(wrappedPrivate: wrappedPrivate, publicKey: publicKey, tags: tags)
        }
        guard reader.isAtEnd else { throw .decode("the keychain's keybag is damaged") }
        return KeybagRecord(generation: generation, wrappedIndexKey: indexKey, classes: classes,
                            passwordParameters: parameters.isEmpty ? nil : parameters,
                            lockTimeout: timeout == 0 ? nil : timeout, presence: presence)
    }

    private static func appendBlob(_ data: Data, to out: inout [UInt8]) {
        withUnsafeBytes(of: UInt16(data.count).bigEndian) { out += $0 }
        out += data
    }

    private static func blob(_ reader: inout ByteReader) throws(KeychainStoreError) -> Data {
        let high = Int(try reader.byte()), low = Int(try reader.byte())
        return try reader.bytes(high << 8 | low)
    }

    private static func protectionClass(_ reader: inout ByteReader) throws(KeychainStoreError) -> ProtectionClass {
        guard let protection = ProtectionClass(rawValue: Int(try reader.byte())) else {
            throw .decode("the keychain's keybag names an unknown protection class")
        }
        return protection
    }
}

extension ByteReader {
    mutating func uint64BigEndian() throws(KeychainStoreError) -> UInt64 {
        var value: UInt64 = 0
        for _ in 0..<8 { value = value << 8 | UInt64(try byte()) }
        return value
    }

    mutating func uint32BigEndian() throws(KeychainStoreError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 { value = value << 8 | UInt32(try byte()) }
        return value
    }
}

/// Compares two byte strings in time that depends only on their lengths.
func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    var difference: UInt8 = 0
    for index in a.indices { difference |= a[index] ^ b[index] }
    return difference == 0
}
