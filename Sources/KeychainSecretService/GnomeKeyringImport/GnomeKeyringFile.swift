package import Foundation
import Crypto
import _CryptoExtras

/// A keyring file of GNOME Keyring, opened with its password: the items to move into the
/// keychain (`keychainctl import --from gnome-keyring`). Two formats share the header
/// `GnomeKeyring\n\r\0\n` and differ in the two version bytes after it:
///
/// - **0.0, the format gnome-keyring-daemon writes** (`~/.local/share/keyrings/<name>.keyring`;
///   gnome-keyring's `pkcs11/secret-store/gkm-secret-binary.c`): big-endian. Crypto and hash
///   algorithm bytes (both 0), the keyring's label, times, flags and lock timeout, the hash
///   iteration count and an 8-byte salt, 16 reserved bytes, the item count, then per item its id,
///   type and attributes with *hashed* values (MD5, not usable), then the size of one encrypted
///   block. The block is AES-128-CBC with the key and IV taken from SHA-256 of the password and
///   salt iterated (`egg_symkey_generate_simple`); decrypted, it begins with the MD5 of the rest,
///   which is per item its label, secret, created and modified times, reserved fields, its real
///   attributes (string or uint32 values) and an access list. A wrong password shows as a
///   checksum that does not match.
/// - **1.0, libsecret's file backend and oo7** (`~/.local/share/keyrings/v1/<name>.keyring`;
///   libsecret's `secret-file-collection.c`, `egg-keyring1-libgcrypt.c`): a little-endian GVariant
///   `(uayutua(a{say}ay))`, salt size, salt, PBKDF2 iteration count, modification time, usage
///   count, and the items, each its attribute names with HMAC-SHA256 values and a blob. The key is
///   PBKDF2-HMAC-SHA256 of the password (16 bytes). A blob is AES-128-CBC ciphertext (PKCS#7
///   padded), the 16-byte IV, and an HMAC-SHA256 under the key of the two; the plaintext is the
///   GVariant `(a{ss}sttay)`: attributes, label, created, modified, secret.
///
/// Every length, count and offset is checked against the bytes that are there: a truncated,
/// damaged or hostile file throws ``GnomeKeyringFileError`` and never traps, and no error
/// message quotes a label, an attribute or a secret.
package struct GnomeKeyringFile: Sendable {
    package enum Format: String, Sendable {
        /// gnome-keyring-daemon's format (0.0).
        case legacy
        /// libsecret's and oo7's format (1.0).
        case v1
    }

    package let format: Format
    private let contents: Contents

    private enum Contents: Sendable {
        case legacy(salt: [UInt8], iterations: Int, hashedItems: [LegacyHashedItem], encrypted: [UInt8])
        case v1(salt: [UInt8], iterations: Int, items: [V1Item])
    }

    private struct LegacyHashedItem: Sendable {
        var type: UInt32
    }

    private struct V1Item: Sendable {
        var hashedAttributes: [String: Data]
        var blob: Data
    }

    static let header: [UInt8] = Array("GnomeKeyring\n\r\0\n".utf8)
    /// More iterations than this is not a keyring a real tool wrote (gnome-keyring uses
    /// 1000-4095, libsecret and oo7 100,000), and would make opening it take minutes.
    static let maximumIterations = 4_000_000
    /// Times past the year 9999 are read as that year.
    static let latestTime: UInt64 = 253_402_300_799
    /// oo7 keeps each secret's content type as this attribute.
    static let contentTypeAttribute = "xdg:content-type"

    /// Reads the file's structure (nothing that needs the password).
    package init(_ data: Data) throws(GnomeKeyringFileError) {
        let bytes = [UInt8](data)
        guard bytes.count >= Self.header.count, Array(bytes[0..<Self.header.count]) == Self.header else { throw .notAKeyring }
        guard bytes.count >= Self.header.count + 2 else { throw .damaged("the file ends after its header") }
        let major = bytes[Self.header.count], minor = bytes[Self.header.count + 1]
        switch (major, minor) {
        case (0, 0):
            format = .legacy
            contents = try Self.parseLegacy(bytes)
        case (1, 0):
            format = .v1
            contents = try Self.parseV1(Array(bytes[(Self.header.count + 2)...]))
        default:
            throw .unsupportedVersion(major: major, minor: minor)
        }
    }

    /// How many items the file holds.
    package var itemCount: Int {
        switch contents {
        case .legacy(_, _, let hashedItems, _): return hashedItems.count
        case .v1(_, _, let items): return items.count
        }
    }

    /// Decrypts every item with `password`. All or nothing: an item that does not open fails the call.
    ///
    /// - Throws: ``GnomeKeyringFileError/wrongPassword`` when the password opens nothing (for a
    ///   legacy file: the checksum does not match, which is also what a damaged encrypted block
    ///   gives), ``GnomeKeyringFileError/damaged(_:)`` when it opens some items but not all, or
    ///   the decrypted contents do not parse.
    package func items(password: [UInt8]) throws(GnomeKeyringFileError) -> [GnomeKeyringItem] {
        switch contents {
        case .legacy(let salt, let iterations, let hashedItems, let encrypted):
            return try Self.decryptLegacy(salt: salt, iterations: iterations, hashedItems: hashedItems, encrypted: encrypted,
                                          password: password)
        case .v1(let salt, let iterations, let items):
            return try Self.decryptV1(salt: salt, iterations: iterations, items: items, password: password)
        }
    }

    // MARK: Legacy format

    private static func parseLegacy(_ bytes: [UInt8]) throws(GnomeKeyringFileError) -> Contents {
        var reader = BigEndianReader(bytes, from: header.count + 2)
        let crypto = try reader.byte(), hash = try reader.byte()
        guard crypto == 0, hash == 0 else { throw .damaged("unknown cipher (\(crypto)) or hash (\(hash)) algorithm") }
        _ = try reader.string()  // the keyring's label
        _ = try reader.uint64()  // created
        _ = try reader.uint64()  // modified
        _ = try reader.uint32()  // flags
        _ = try reader.uint32()  // lock timeout
        let iterations = Int(try reader.uint32())
        guard (1...maximumIterations).contains(iterations) else { throw .damaged("the hash iteration count \(iterations) is out of range") }
        let salt = try reader.bytes(8)
        for _ in 0..<4 { _ = try reader.uint32() }
        let count = try reader.uint32()
        var hashedItems: [LegacyHashedItem] = []
        for _ in 0..<count {
            _ = try reader.uint32()  // id
            let type = try reader.uint32()
            _ = try readAttributes(&reader)  // values are hashes: the real ones are encrypted
            hashedItems.append(LegacyHashedItem(type: type))
        }
        let size = Int(try reader.uint32())
        guard size >= 16, size % 16 == 0 else { throw .damaged("the encrypted block's size \(size) is not a whole number of AES blocks") }
        let encrypted = try reader.bytes(size)
        // gnome-keyring ignores what follows the block; so do we.
        return .legacy(salt: salt, iterations: iterations, hashedItems: hashedItems, encrypted: encrypted)
    }

    /// An attribute list: a count, then names with a type (0 string, 1 uint32) and a value.
    /// A uint32 reads as its decimal text, as gnome-keyring shows it to Secret Service clients.
    private static func readAttributes(_ reader: inout BigEndianReader) throws(GnomeKeyringFileError) -> [String: String] {
        let count = try reader.uint32()
        var attributes: [String: String] = [:]
        for _ in 0..<count {
            guard let name = try reader.string() else { throw .damaged("an attribute has no name") }
            switch try reader.uint32() {
            case 0:
                guard let value = try reader.string() else { throw .damaged("an attribute has no value") }
                attributes[name] = value
            case 1:
                attributes[name] = String(try reader.uint32())
            case let type:
                throw .damaged("an attribute has the unknown type \(type)")
            }
        }
        return attributes
    }

    private static func decryptLegacy(salt: [UInt8], iterations: Int, hashedItems: [LegacyHashedItem], encrypted: [UInt8],
                                      password: [UInt8]) throws(GnomeKeyringFileError) -> [GnomeKeyringItem] {
        // egg_symkey_generate_simple for AES-128 and SHA-256: one pass gives 32 bytes, the key
        // then the IV.
        var digest = Array(SHA256.hash(data: password + salt))
        for _ in 1..<iterations { digest = Array(SHA256.hash(data: digest)) }
        let key = SymmetricKey(data: digest[0..<16])
        let plaintext: [UInt8]
        do {
            let iv = try AES._CBC.IV(ivBytes: digest[16..<32])
            plaintext = Array(try AES._CBC.decrypt(encrypted, using: key, iv: iv, noPadding: true))
        } catch {
            throw .damaged("the encrypted block could not be decrypted")
        }
        guard plaintext.count >= 16, Array(Insecure.MD5.hash(data: plaintext[16...])) == Array(plaintext[0..<16]) else {
            throw .wrongPassword
        }
        var reader = BigEndianReader(plaintext, from: 16)
        var items: [GnomeKeyringItem] = []
        for hashed in hashedItems {
            let label = try reader.string() ?? ""
            let secret = try reader.byteArray() ?? []
            let created = try reader.uint64(), modified = try reader.uint64()
            _ = try reader.string()  // reserved
            for _ in 0..<4 { _ = try reader.uint32() }
            var attributes = try readAttributes(&reader)
            let accessCount = try reader.uint32()
            for _ in 0..<accessCount {
                _ = try reader.uint32()  // types allowed
                _ = try reader.string()  // display name
                _ = try reader.string()  // path
                _ = try reader.string()  // reserved
                _ = try reader.uint32()  // reserved
            }
            // gnome-keyring shows the schema its item type stands for when the attributes name
            // none (gkm_secret_fields_serialize), so clients saw this set.
            if attributes[SecretItemShape.schemaAttribute] == nil, let schema = legacySchema(hashed.type) {
                attributes[SecretItemShape.schemaAttribute] = schema
            }
            items.append(GnomeKeyringItem(label: label, attributes: attributes, secret: Data(secret), contentType: "text/plain",
                                          created: date(created), modified: date(modified)))
        }
        return items
    }

    /// gnome-keyring's `gkm_secret_compat_format_item_type`.
    static func legacySchema(_ type: UInt32) -> String? {
        switch type & 0xFFFF {
        case 0: return "org.freedesktop.Secret.Generic"
        case 1: return SecretItemShape.networkSchema
        case 2: return "org.gnome.keyring.Note"
        case 3: return "org.gnome.keyring.ChainedKeyring"
        case 4: return "org.gnome.keyring.EncryptionKey"
        case 0x100: return "org.gnome.keyring.PkStorage"
        default: return nil
        }
    }

    // MARK: Version 1 format

    private static let v1Type = try! GVariantReader.VariantType("(uayutua(a{say}ay))")
    private static let v1ItemType = try! GVariantReader.VariantType("(a{ss}sttay)")
    static let macSize = 32
    static let ivSize = 16

    private static func parseV1(_ body: [UInt8]) throws(GnomeKeyringFileError) -> Contents {
        let value: GVariantReader.Value
        do {
            value = try GVariantReader.read(v1Type, from: body)
        } catch {
            throw .damaged(error.description)
        }
        // The reader returns exactly the shape of the type, so these casts hold.
        guard let fields = value.elements, fields.count == 6, let saltSize = fields[0].number, let salt = fields[1].bytes,
              let iterations = fields[2].number, let entries = fields[5].elements else {
            throw .damaged("the keyring's fields are not where they belong")
        }
        guard saltSize == UInt64(salt.count) else { throw .damaged("the salt has \(salt.count) bytes, not the \(saltSize) it says") }
        guard (1...UInt64(maximumIterations)).contains(iterations) else {
            throw .damaged("the iteration count \(iterations) is out of range")
        }
        var items: [V1Item] = []
        for entry in entries {
            guard let parts = entry.elements, parts.count == 2, let hashed = parts[0].elements, let blob = parts[1].bytes else {
                throw .damaged("an item is not where it belongs")
            }
            var hashedAttributes: [String: Data] = [:]
            for pair in hashed {
                guard let nameAndMac = pair.elements, nameAndMac.count == 2, let name = nameAndMac[0].string,
                      let mac = nameAndMac[1].bytes else { throw .damaged("an item's hashed attributes are malformed") }
                hashedAttributes[name] = mac
            }
            let cipherSize = blob.count - macSize - ivSize
            guard cipherSize >= 16, cipherSize % 16 == 0 else { throw .damaged("an item's encrypted blob has \(blob.count) bytes") }
            items.append(V1Item(hashedAttributes: hashedAttributes, blob: blob))
        }
        return .v1(salt: Array(salt), iterations: Int(iterations), items: items)
    }

    private static func decryptV1(salt: [UInt8], iterations: Int, items: [V1Item],
                                  password: [UInt8]) throws(GnomeKeyringFileError) -> [GnomeKeyringItem] {
        let key: SymmetricKey
        do {
            key = try KDF.Insecure.PBKDF2.deriveKey(from: password, salt: salt, using: .sha256, outputByteCount: 16,
                                                    unsafeUncheckedRounds: iterations)
        } catch {
            throw .damaged("the key could not be derived")
        }
        // Every item has its own MAC under the key: a password that opens none is wrong; one
        // that opens some but not all means the others are damaged.
        var authentic: [Bool] = []
        for item in items {
            let signed = item.blob.prefix(item.blob.count - macSize)
            authentic.append(HMAC<SHA256>.isValidAuthenticationCode(item.blob.suffix(macSize), authenticating: signed, using: key))
        }
        if !items.isEmpty, !authentic.contains(true) { throw .wrongPassword }
        if authentic.contains(false) { throw .damaged("an item's authentication code does not match") }

        var result: [GnomeKeyringItem] = []
        for item in items {
            let ciphertext = item.blob.prefix(item.blob.count - macSize - ivSize)
            let ivBytes = item.blob.dropFirst(item.blob.count - macSize - ivSize).prefix(ivSize)
            let padded: [UInt8]
            do {
                padded = Array(try AES._CBC.decrypt(ciphertext, using: key, iv: try AES._CBC.IV(ivBytes: ivBytes), noPadding: true))
            } catch {
                throw .damaged("an item could not be decrypted")
            }
            guard let padding = padded.last, (1...16).contains(padding),
                  padded.suffix(Int(padding)).allSatisfy({ $0 == padding }) else {
                throw .damaged("an item's padding is malformed")
            }
            let value: GVariantReader.Value
            do {
                value = try GVariantReader.read(v1ItemType, from: padded.dropLast(Int(padding)))
            } catch {
                throw .damaged("an item: " + error.description)
            }
            guard let fields = value.elements, fields.count == 5, let pairs = fields[0].elements, let label = fields[1].string,
                  let created = fields[2].number, let modified = fields[3].number, let secret = fields[4].bytes else {
                throw .damaged("an item's fields are not where they belong")
            }
            var attributes: [String: String] = [:]
            for pair in pairs {
                guard let nameAndValue = pair.elements, nameAndValue.count == 2, let name = nameAndValue[0].string,
                      let text = nameAndValue[1].string else { throw .damaged("an item's attributes are malformed") }
                attributes[name] = text
            }
            // The hashed attributes are the same set under the key (oo7 checks this too).
            for (name, mac) in item.hashedAttributes {
                guard let text = attributes[name],
                      HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: Data(text.utf8), using: key) else {
                    throw .damaged("an item's hashed attributes do not match its attributes")
                }
            }
            let contentType = attributes.removeValue(forKey: contentTypeAttribute) ?? "text/plain"
            result.append(GnomeKeyringItem(label: label, attributes: attributes, secret: secret, contentType: contentType,
                                           created: date(created), modified: date(modified)))
        }
        return result
    }

    private static func date(_ secondsSince1970: UInt64) -> Date {
        Date(timeIntervalSince1970: TimeInterval(min(secondsSince1970, latestTime)))
    }

    /// The keyring files gnome-keyring and libsecret keep for the keyring `name`, in the order
    /// `keychainctl import --from gnome-keyring` tries them: gnome-keyring's own, then the v1 one.
    package static func defaultPaths(name: String = "login", environment: [String: String] = ProcessInfo.processInfo.environment) -> [URL] {
        let data: URL
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            data = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            data = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".local/share", isDirectory: true)
        }
        let keyrings = data.appendingPathComponent("keyrings", isDirectory: true)
        return [keyrings.appendingPathComponent("\(name).keyring"), keyrings.appendingPathComponent("v1/\(name).keyring")]
    }
}

/// One item of a GNOME keyring, decrypted.
package struct GnomeKeyringItem: Sendable, Equatable {
    package var label: String
    /// The attributes as gnome-keyring (or libsecret) showed them to Secret Service clients.
    package var attributes: [String: String]
    package var secret: Data
    package var contentType: String
    package var created: Date
    package var modified: Date

    package init(label: String, attributes: [String: String], secret: Data, contentType: String, created: Date, modified: Date) {
        self.label = label
        self.attributes = attributes
        self.secret = secret
        self.contentType = contentType
        self.created = created
        self.modified = modified
    }
}

/// Why a keyring file could not be read. The texts name no label, attribute or secret.
package enum GnomeKeyringFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file does not begin with the keyring header.
    case notAKeyring
    /// A keyring format this reader does not know.
    case unsupportedVersion(major: UInt8, minor: UInt8)
    /// The password opens nothing in the file.
    case wrongPassword
    /// The file is truncated or its contents are inconsistent; the text says what was wrong.
    case damaged(String)

    package var description: String {
        switch self {
        case .notAKeyring: return "the file is not a GNOME keyring (it does not begin with the keyring header)"
        case .unsupportedVersion(let major, let minor): return "the keyring's format version \(major).\(minor) is not supported (only 0.0 and 1.0 are)"
        case .wrongPassword: return "the password does not open this keyring"
        case .damaged(let reason): return "the keyring file is damaged: \(reason)"
        }
    }
}

/// Reads the big-endian fields of gnome-keyring's own format (egg-buffer.c), failing cleanly
/// at the end of the bytes.
private struct BigEndianReader {
    let bytes: [UInt8]
    var position: Int

    init(_ bytes: [UInt8], from position: Int) {
        self.bytes = bytes
        self.position = position
    }

    mutating func bytes(_ count: Int) throws(GnomeKeyringFileError) -> [UInt8] {
        guard count >= 0, count <= bytes.count - position else { throw .damaged("it ends early, at byte \(bytes.count)") }
        defer { position += count }
        return Array(bytes[position..<position + count])
    }

    mutating func byte() throws(GnomeKeyringFileError) -> UInt8 {
        try bytes(1)[0]
    }

    mutating func uint32() throws(GnomeKeyringFileError) -> UInt32 {
        try bytes(4).reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// A time: two uint32s, high half first.
    mutating func uint64() throws(GnomeKeyringFileError) -> UInt64 {
        let high = UInt64(try uint32())
        return high << 32 | UInt64(try uint32())
    }

    /// A length-prefixed byte array; the length 0xFFFFFFFF is nil.
    mutating func byteArray() throws(GnomeKeyringFileError) -> [UInt8]? {
        let length = try uint32()
        if length == 0xFFFF_FFFF { return nil }
        guard length < 0x7FFF_FFFF else { throw .damaged("a length of \(length) bytes") }
        return try bytes(Int(length))
    }

    /// A string as gnome-keyring reads one: a byte array with no NUL in it, UTF-8.
    mutating func string() throws(GnomeKeyringFileError) -> String? {
        guard let raw = try byteArray() else { return nil }
        guard !raw.contains(0), let text = String(validating: raw, as: UTF8.self) else {
            throw .damaged("a string is not UTF-8 text")
        }
        return text
    }
}
