import Foundation
import KeychainServices
import KeychainStore

/// Our keychain, through Apple's SecItem API exactly as an application calls it.
final class SecItemSystem: KeyValueSystem {
    let name = "swift-keychain"
    let file: KeychainFile
    let path: String

    /// Opens (creating) a keychain at `path` with the device key stored at `deviceKeyPath`, and
    /// makes it this process's default, so plain SecItem calls reach it.
    init(path: String, deviceKeyPath: String, password: String? = nil) throws {
        self.path = path
        let key = try DeviceKey.load(from: URL(fileURLWithPath: deviceKeyPath), create: true)
        file = try KeychainFile.open(at: URL(fileURLWithPath: path), deviceKey: key)
        if let password, !file.hasPassword { try file.setPassword(password, currentPassword: nil) }
        activate()
    }

    /// The system whose keychain is the process default now. The benchmark is single-threaded.
    nonisolated(unsafe) private static var active: ObjectIdentifier?

    /// Makes this keychain the process default (as an application's would be) if another
    /// system's is; the check is one comparison, so it costs the timed calls nothing.
    @inline(__always)
    private func activate() {
        guard Self.active != ObjectIdentifier(self) else { return }
        KeychainContext.setProcessDefault(KeychainContext(file: file, identity: .unconfigured))
        Self.active = ObjectIdentifier(self)
    }

    func fill(from: Int, to: Int) throws {
        // No batch API exists: the fill is one durable SecItemAdd per item, like the timed adds.
        for i in from..<to { try add(account: WorkloadKeys.filler(i), secret: WorkloadKeys.secret(i)) }
    }

    func add(account: String, secret: [UInt8]) throws {
        activate()
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: WorkloadKeys.service,
            kSecAttrAccount as String: account,
            kSecValueData as String: Data(secret),
        ]
        try check(SecItemAdd(query as CFDictionary, nil), "SecItemAdd")
    }

    func lookup(account: String) throws {
        guard let data = try copyData(account: account) as? Data, data.count == 24 else {
            throw BenchFailure("SecItemCopyMatching returned no data")
        }
    }

    /// The object `SecItemCopyMatching` hands out for the item's data, uncast.
    func copyData(account: String) throws -> CFTypeRef {
        activate()
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: WorkloadKeys.service,
            kSecAttrAccount as String: account,
            kSecReturnData as String: kCFBooleanTrue!,
        ]
        var result: CFTypeRef?
        try check(SecItemCopyMatching(query as CFDictionary, &result), "SecItemCopyMatching")
        guard let result else { throw BenchFailure("SecItemCopyMatching returned nothing") }
        return result
    }

    func update(account: String, secret: [UInt8]) throws {
        activate()
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: WorkloadKeys.service,
            kSecAttrAccount as String: account,
        ]
        let changes: [String: Any] = [kSecValueData as String: Data(secret)]
        try check(SecItemUpdate(query as CFDictionary, changes as CFDictionary), "SecItemUpdate")
    }

    func delete(account: String) throws {
        activate()
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: WorkloadKeys.service,
            kSecAttrAccount as String: account,
        ]
        try check(SecItemDelete(query as CFDictionary), "SecItemDelete")
    }

    var bytesOnDisk: Int { databaseBytes(path) }
    var databasePath: String { path }

    private func check(_ status: OSStatus, _ call: String) throws {
        guard status == errSecSuccess else { throw BenchFailure("\(call) returned \(status)") }
    }
}
