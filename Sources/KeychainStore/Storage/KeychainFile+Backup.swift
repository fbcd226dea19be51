#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
import Crypto

/// Backups: every item that may leave this device, sealed under a backup password.
///
/// File format: magic `SWKCBAK1`, the scrypt parameters (encoded as for keychain passwords;
/// N = 2^17 for backups written since scrypt costs were raised, 2^15 before), then one
/// AES-256-GCM box whose plaintext is the item list. Each item is its class code, its 16-byte
/// identity, its attributes (the keychain's attribute encoding) and its secret. ThisDeviceOnly
/// and `akpu` items are never exported, as on Apple platforms, nor are items whose access control
/// requires authentication.
extension KeychainFile {
    static let backupMagic = Data("SWKCBAK1".utf8)

    /// Writes a backup of every exportable item to `url` (created with mode 0600; an existing
    /// file is not replaced).
    ///
    /// - Throws: `errSecInteractionNotAllowed` while the keychain is locked; I/O errors.
    /// - Returns: how many items were written.
    @discardableResult
    package func exportBackup(to url: URL, password: String) throws(KeychainStoreError) -> Int {
        var items: [StoredItem] = []
        for itemClass in ItemClass.allCases {
            let found: [StoredItem]
            do {
                // Items that need authentication stay on this device, like ThisDeviceOnly ones:
                // their secret is sealed to this keychain's password.
                found = try find(ItemQuery(itemClass: itemClass, anySynchronizable: true), identity: .administrator(),
                                 limit: nil, includeSecrets: true, authorize: { _ in .skip })
            } catch where error.status == SecStatus.itemNotFound {
                continue
            }
            items += found.filter { item in
                guard let protection = item.attributes[AttributeName.accessible]?.stringValue.flatMap(ProtectionClass.init(pdmn:)) else { return false }
                return !protection.isThisDeviceOnly
            }
        }
        var plaintext = Data()
        append(UInt32(items.count), to: &plaintext)
        for item in items {
            plaintext.append(Data(item.itemClass.code.utf8))
            plaintext.append(item.persistentReference)
            let attributes = AttributeCodec.encode(item.attributes)
            append(UInt32(attributes.count), to: &plaintext)
            plaintext.append(attributes)
            plaintext.append(SecretCodec.encode(item.secret))
        }
        // Stronger than a keychain password's: nothing but the password protects a backup.
        let parameters = PasswordKeyParameters.freshForBackup()
        let key = try backupKey(password: password, parameters: parameters)
        var file = KeychainFile.backupMagic
        file.append(parameters.encoded)
        do {
            file.append(try AES.GCM.seal(plaintext, using: key, authenticating: KeychainFile.backupMagic).combined!)
        } catch {
            throw .allocate("encryption failed")
        }
        // A backup may go to a shared folder (a USB stick, /tmp): it is sealed, and created
        // without replacing anything, so that folder's permissions are not its protection.
        guard try SecureFile.createExclusively(url, contents: file, checkingFolder: false) == .created else {
            throw .io("'\(url.path)' already exists")
        }
        return items.count
    }

    /// Merges a backup into this keychain.
    ///
    /// An item whose primary key is not here is added with its attributes, dates and identity;
    /// when one is here, the later modification date wins, and on equal dates the smaller digest
    /// (`sha1`), as Security merges items. Nothing is deleted.
    ///
    /// - Throws: `errSecAuthFailed` for a wrong backup password, `errSecDecode` for a damaged file.
    /// - Returns: how many items were added or replaced.
    @discardableResult
    package func importBackup(from url: URL, password: String) throws(KeychainStoreError) -> Int {
        guard let file = FileManager.default.contents(atPath: url.path) else { throw .io("cannot read '\(url.path)'") }
        guard file.starts(with: KeychainFile.backupMagic), file.count > 8 + 26 else { throw .decode("not a keychain backup") }
        // The header is not authenticated: its costs are checked (errSecDecode) before scrypt
        // runs, so a crafted file cannot make the import allocate or compute without bound.
        // Older backups carry their own (weaker) parameters and still import.
        let parameters = try PasswordKeyParameters(encoded: file.subdata(in: file.startIndex + 8..<file.startIndex + 8 + 26))
        let key = try backupKey(password: password, parameters: parameters)
        let plaintext: Data
        do {
            let box = try AES.GCM.SealedBox(combined: file.subdata(in: file.startIndex + 34..<file.endIndex))
            plaintext = try AES.GCM.open(box, using: key, authenticating: KeychainFile.backupMagic)
        } catch {
            throw .authFailed("the backup password is not correct, or the backup is damaged")
        }
        let items = try decodeBackupItems(plaintext)
        return try withItemTransaction { state throws(KeychainStoreError) -> Int in
            var changed = 0
            for item in items {
                // Device-only items never leave their device, whatever a backup says.
                guard let protection = item.attributes[AttributeName.accessible]?.stringValue.flatMap(ProtectionClass.init(pdmn:)),
                      !protection.isThisDeviceOnly else { continue }
                if try state.merge(item, protection: protection, policy: .backup) != .keptLocal { changed += 1 }
            }
            return changed
        }
    }

    private func backupKey(password: String, parameters: PasswordKeyParameters) throws(KeychainStoreError) -> SymmetricKey {
        // Backups must open on another device, so the key depends on the password alone.
        do {
            return try parametersStretch(password, parameters)
        } catch {
            throw .allocate("key derivation failed")
        }
    }

    private func decodeBackupItems(_ plaintext: Data) throws(KeychainStoreError) -> [StoredItem] {
        var reader = ByteReader(plaintext)
        let count = Int(try reader.uint32())
        var items: [StoredItem] = []
        for _ in 0..<count {
            guard let code = String(bytes: try reader.bytes(4), encoding: .ascii), let itemClass = ItemClass(code: code) else {
                throw .decode("a backup item has an unknown class")
            }
            let reference = try reader.bytes(16)
            let attributes = try AttributeCodec.decode(try reader.bytes(Int(try reader.uint32())))
            // The secret's encoded form is padded to 32 bytes: read its header to know its length.
            let present = try reader.byte()
            let length = Int(try reader.uint32())
            let secret = try reader.bytes(length)
            let padding = (32 - (5 + length) % 32) % 32
            _ = try reader.bytes(padding)
            items.append(StoredItem(itemClass: itemClass, persistentReference: reference, attributes: attributes,
                                    secret: present == 0 ? nil : secret))
        }
        return items
    }

    private func append(_ value: UInt32, to data: inout Data) {
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }
}

extension KeychainFile {
    /// Security's merge rule: the later `mdat` wins; on equal dates, the smaller `sha1`.
    static func incomingWins(_ incoming: [String: AttributeValue], over local: [String: AttributeValue]) -> Bool {
        guard case .date(let new)? = incoming[AttributeName.modificationDate] else { return false }
        guard case .date(let old)? = local[AttributeName.modificationDate] else { return true }
        if new != old { return new > old }
        guard case .data(let a)? = incoming[AttributeName.sha1], case .data(let b)? = local[AttributeName.sha1] else { return false }
        return a.lexicographicallyPrecedes(b)
    }
}
