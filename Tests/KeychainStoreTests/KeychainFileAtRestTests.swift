import Foundation
import KeychainStore
import KeychainTestSupport
import Testing

/// The engine's file, seen by someone who has it but not the device key: it reveals no stored
/// value, and it does not open.
@Suite("KeychainFile at rest")
struct KeychainFileAtRestTests {
    /// Distinct values per attribute, long enough that a chance match in ciphertext is impossible.
    static func values(_ tag: Int) -> (attributes: [String: AttributeValue], secret: Data, texts: [String]) {
        let texts = ["acct", "svce", "labl", "icmt", "desc", "gena", "secret"].map { "\($0)-\(tag)-7Hq2VxR9mK4pLw8Zt3Nc" }
        let attributes: [String: AttributeValue] = [
            "acct": .string(texts[0]), "svce": .string(texts[1]), "labl": .string(texts[2]),
            "icmt": .string(texts[3]), "desc": .string(texts[4]), "gena": .data(Data(texts[5].utf8)),
        ]
        return (attributes, Data(texts[6].utf8), texts)
    }

    static func fileBytes(_ url: URL) -> Data {
        var bytes = Data()
        for suffix in ["", "-wal", "-shm"] {
            if let data = FileManager.default.contents(atPath: url.path + suffix) { bytes.append(data) }
        }
        return bytes
    }

    @Test("Attributes and secrets written through the engine appear nowhere in the file, WAL or SHM, as UTF-8 or UTF-16")
    func engineWritesNoPlaintext() throws {
        let keychain = try TestKeychain()
        var texts: [String] = []
        for tag in 0..<12 {
            let (attributes, secret, written) = Self.values(tag)
            texts += written
            _ = try keychain.file.add(.genericPassword, attributes: attributes, secret: secret, identity: .unconfigured)
        }
        // Replace half the secrets and delete a quarter of the items: old values must be gone too.
        for tag in 0..<6 {
            let newSecret = "replaced-\(tag)-Qm5Tz8Wc1Rv4Xn7B"
            texts.append(newSecret)
            try keychain.file.update(ItemQuery(itemClass: .genericPassword, filters: ["acct": Self.values(tag).attributes["acct"]!]),
                                     changes: [:], secret: Data(newSecret.utf8), identity: .unconfigured)
        }
        for tag in 6..<9 {
            try keychain.file.delete(ItemQuery(itemClass: .genericPassword, filters: ["acct": Self.values(tag).attributes["acct"]!]),
                                     identity: .unconfigured)
        }
        let bytes = Self.fileBytes(keychain.file.url)
        #expect(bytes.count > 4096)
        for text in texts {
            #expect(bytes.range(of: Data(text.utf8)) == nil, "\(text) in UTF-8")
            #expect(bytes.range(of: text.data(using: .utf16LittleEndian)!) == nil, "\(text) in UTF-16")
        }
    }

    @Test("A keychain file copied away without its device key does not open with another key")
    func otherDeviceKeyIsRefused() throws {
        let keychain = try TestKeychain()
        let (attributes, secret, _) = Self.values(1)
        _ = try keychain.file.add(.genericPassword, attributes: attributes, secret: secret, identity: .unconfigured)
        #expect(throws: KeychainStoreError.self) {
            _ = try KeychainFile.open(at: keychain.file.url, deviceKey: .random(), create: false)
        }
    }

    @Test("Reopened with its own device key, the file returns what was stored")
    func reopenWithDeviceKey() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("swift-keychain-store-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let keyURL = folder.appendingPathComponent("config/device-key")
        let url = folder.appendingPathComponent("data/reopen.keychain-db")
        let (attributes, secret, _) = Self.values(2)
        do {
            let file = try KeychainFile.open(at: url, deviceKey: try DeviceKey.load(from: keyURL, create: true))
            _ = try file.add(.genericPassword, attributes: attributes, secret: secret, identity: .unconfigured)
        }
        let reopened = try KeychainFile.open(at: url, deviceKey: try DeviceKey.load(from: keyURL, create: false), create: false)
        let found = try reopened.find(ItemQuery(itemClass: .genericPassword, filters: ["acct": attributes["acct"]!]),
                                      identity: .unconfigured, limit: nil, includeSecrets: true)
        #expect(found.count == 1)
        #expect(found.first?.secret == secret)
        #expect(found.first?.attributes["labl"] == attributes["labl"])
        #expect(try reopened.integrityCheck())
    }

    @Test("The keychain file and the device key are private to the user (0600 in 0700 folders)")
    func privateModes() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("swift-keychain-store-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let keyURL = folder.appendingPathComponent("config/swift-keychain/device-key")
        let url = folder.appendingPathComponent("data/keychains/modes.keychain-db")
        _ = try KeychainFile.open(at: url, deviceKey: try DeviceKey.load(from: keyURL, create: true))
        func mode(_ url: URL) throws -> Int {
            (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
        }
        #expect(try mode(url) == 0o600)
        #expect(try mode(url.deletingLastPathComponent()) == 0o700)
        #expect(try mode(keyURL) == 0o600)
        #expect(try mode(keyURL.deletingLastPathComponent()) == 0o700)
    }
}
