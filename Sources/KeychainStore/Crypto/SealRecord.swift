#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
import Crypto

/// A seal: the keychain's unlock key (the key derived from its password, which unwraps the
/// password-protected class keys) encrypted by something the machine holds, so that the keychain
/// can be unlocked without a person (docs/machine-unlock.md).
///
/// The record says how the key was sealed and which password it belongs to; the sealed bytes are
/// the machine's (a systemd credential, a TPM2 object), opaque to the engine. It is kept in the
/// `settings` table under ``settingPrefix`` and its name, authenticated as a whole by a MAC keyed
/// from the device key, like the keybag: someone without the device key can neither plant a seal
/// nor change where one points. Records carry their own format version, so adding them needed no
/// schema upgrade (older versions ignore rows they do not know).
package struct SealRecord: Equatable, Sendable {
    package static let settingPrefix = "seal/"
    static let formatVersion: UInt8 = 1
    static let macLength = 32

    /// The seal's name (unique in the keychain): letters, digits, `.`, `_` and `-`, at most 64.
    package var name: String
    /// How it was sealed (`systemd-creds`, `tpm2`): the front end that knows how to unseal it.
    package var method: String
    package var created: Date
    /// The password parameters (scrypt salt and costs) in force when the key was sealed. Every
    /// password change draws a new salt, so a record whose parameters differ from the keybag's is
    /// known to be stale before anything is unsealed.
    package var passwordParameters: Data
    /// ``SealedUnlockKey/checkValue`` of the sealed key: a key unsealed from somewhere else (another
    /// keychain's credential, a damaged blob that still decodes) is refused before it is used.
    package var keyCheck: Data
    /// What the method needs to unseal, in words (credential name, file, PCRs); never secret.
    package var details: [String: String]
    /// The sealed bytes as the machine's tool returned them (ciphertext; useless without it).
    package var sealed: Data

    package init(name: String, method: String, created: Date, passwordParameters: Data, keyCheck: Data,
                 details: [String: String], sealed: Data) {
        self.name = name
        self.method = method
        self.created = created
        self.passwordParameters = passwordParameters
        self.keyCheck = keyCheck
        self.details = details
        self.sealed = sealed
    }

    /// Whether `name` can name a seal (it becomes part of a `settings` name and of file names).
    package static func isValidName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count) && name.utf8.first != UInt8(ascii: ".")
            && name.utf8.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || [UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-")].contains(byte)
            }
    }

    /// What does not fit the record's encoding, if anything: text and blobs carry 16-bit
    /// lengths, the sealed bytes a 32-bit one, and there are at most 255 details. Checked before
    /// encoding, which would otherwise trap on the length conversion (a long `--output` path
    /// is enough to reach it).
    var oversizedField: String? {
        let limit = Int(UInt16.max)
        if name.utf8.count > limit || method.utf8.count > limit { return "the seal's name or method is too long" }
        if passwordParameters.count > limit || keyCheck.count > limit { return "the seal's key parameters are too long" }
        if details.count > Int(UInt8.max) { return "a seal has at most \(UInt8.max) details" }
        if details.contains(where: { $0.key.utf8.count > limit || $0.value.utf8.count > limit }) {
            return "a detail of the seal is longer than \(limit) bytes"
        }
        if sealed.count > Int(UInt32.max) { return "the sealed bytes are too long" }
        return nil
    }

    // MARK: Sealing the record

    func sealedRecord(deviceKey: DeviceKey, keychainID: Data) -> Data {
        let body = encoded()
        var out = Data(body)
        out.append(contentsOf: Self.mac(body, deviceKey: deviceKey, keychainID: keychainID))
        return out
    }

    /// Reads and authenticates a stored record; `name` is the one its row is stored under, which
    /// the record must repeat (a record copied to another name is refused).
    static func open(_ stored: Data, name: String, deviceKey: DeviceKey, keychainID: Data) throws(KeychainStoreError) -> SealRecord {
        guard stored.count > macLength else { throw .decode("the seal '\(name)' is damaged") }
        let body = [UInt8](stored.dropLast(macLength))
        guard constantTimeEqual(mac(body, deviceKey: deviceKey, keychainID: keychainID), [UInt8](stored.suffix(macLength))) else {
            throw .decode("the seal '\(name)' was not written for this keychain and device key (damaged or planted)")
        }
        let record = try decode(body, name: name)
        guard record.name == name else { throw .decode("the seal '\(name)' is damaged") }
        return record
    }

    private static func mac(_ body: [UInt8], deviceKey: DeviceKey, keychainID: Data) -> [UInt8] {
        var derivation = HMAC<SHA256>(key: deviceKey.key)
        derivation.update(data: Array("swift-keychain/seal-mac/".utf8))
        derivation.update(data: keychainID)
        return Array(HMAC<SHA256>.authenticationCode(for: body, using: SymmetricKey(data: Data(derivation.finalize()))))
    }

    private func encoded() -> [UInt8] {
        var out: [UInt8] = [Self.formatVersion]
        Self.append(Data(name.utf8), to: &out)
        Self.append(Data(method.utf8), to: &out)
        let milliseconds = UInt64(max(0, created.timeIntervalSince1970 * 1000))
        for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: milliseconds >> UInt64(shift))) }
        Self.append(passwordParameters, to: &out)
        Self.append(keyCheck, to: &out)
        let sortedDetails = details.sorted { $0.key < $1.key }
        out.append(UInt8(sortedDetails.count))
        for (key, value) in sortedDetails {
            Self.append(Data(key.utf8), to: &out)
            Self.append(Data(value.utf8), to: &out)
        }
        Self.append(sealed, to: &out, wide: true)
        return out
    }

    private static func decode(_ body: [UInt8], name: String) throws(KeychainStoreError) -> SealRecord {
        var reader = ByteReader(Data(body))
        guard try reader.byte() == formatVersion else {
            throw .decode("the seal '\(name)' has a format this version does not know")
        }
        let recordName = try text(&reader)
        let method = try text(&reader)
        let milliseconds = try reader.uint64BigEndian()
        let parameters = try blob(&reader)
        let check = try blob(&reader)
        var details: [String: String] = [:]
        for _ in 0..<Int(try reader.byte()) {
            let key = try text(&reader)
            details[key] = try text(&reader)
        }
        let sealed = try blob(&reader, wide: true)
        guard reader.isAtEnd else { throw .decode("the seal '\(name)' is damaged") }
        return SealRecord(name: recordName, method: method, created: Date(timeIntervalSince1970: Double(milliseconds) / 1000),
                          passwordParameters: parameters, keyCheck: check, details: details, sealed: sealed)
    }

    private static func append(_ data: Data, to out: inout [UInt8], wide: Bool = false) {
        if wide {
            withUnsafeBytes(of: UInt32(data.count).bigEndian) { out += $0 }
        } else {
            withUnsafeBytes(of: UInt16(data.count).bigEndian) { out += $0 }
        }
        out += data
    }

    private static func blob(_ reader: inout ByteReader, wide: Bool = false) throws(KeychainStoreError) -> Data {
        let count = wide ? Int(try reader.uint32BigEndian()) : Int(try reader.byte()) << 8 | Int(try reader.byte())
        return try reader.bytes(count)
    }

    private static func text(_ reader: inout ByteReader) throws(KeychainStoreError) -> String {
        guard let text = String(validating: try blob(&reader), as: UTF8.self) else { throw .decode("a seal record is damaged") }
        return text
    }
}

/// The bytes a seal protects: the unlock key with the keychain it belongs to, so that a key
/// unsealed from the wrong credential is recognised as foreign rather than tried.
///
/// Layout: `SKUK`, a version byte (1), the keychain's 16-byte id, the 32-byte key.
package struct SealedUnlockKey: Sendable {
    static let magic = Array("SKUK".utf8)
    static let version: UInt8 = 1
    package static let encodedLength = 4 + 1 + 16 + 32

    let keychainID: Data
    let key: SymmetricKey

    init(keychainID: Data, key: SymmetricKey) {
        self.keychainID = keychainID
        self.key = key
    }

    /// What goes to the sealing tool.
    package var encoded: Data {
        var out = Data(Self.magic)
        out.append(Self.version)
        out.append(keychainID)
        key.withUnsafeBytes { out.append(contentsOf: $0) }
        return out
    }

    /// Reads what a sealing tool gave back; anything else is refused without saying more than
    /// that it is not an unlock key.
    package init(decoding data: Data) throws(KeychainStoreError) {
        let bytes = [UInt8](data)
        guard bytes.count == Self.encodedLength, Array(bytes.prefix(4)) == Self.magic else {
            throw .decode("what the seal gave back is not a swift-keychain unlock key (damaged, or another program's credential)")
        }
        guard bytes[4] == Self.version else { throw .decode("the unsealed unlock key has a format this version does not know") }
        keychainID = Data(bytes[5..<21])
        key = SymmetricKey(data: Data(bytes[21..<53]))
    }

    /// 16 bytes that identify the key without revealing it.
    package var checkValue: Data {
        var mac = HMAC<SHA256>(key: key)
        mac.update(data: Array("swift-keychain/seal-check/".utf8))
        mac.update(data: keychainID)
        return Data(mac.finalize().prefix(16))
    }
}
