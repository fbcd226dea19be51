import Foundation
import KeychainServices
import KeychainStore
import KeychainTestSupport
import Testing

/// Nothing a caller stores — account, service, server, label, comment, description, path,
/// security domain, generic attribute, secret — is readable in the keychain's files: not in the
/// main file, not in the write-ahead log, not in the shared-memory index, before or after a
/// checkpoint, as UTF-8 or UTF-16, including values that were later updated away or deleted.
@Suite("At rest: the keychain files never contain what was stored")
struct AtRestTests {
    /// Adds 30 generic and 30 internet passwords with distinctive values, updates a third of them
    /// (new secret, label, comment) and deletes another third, in the calling task's keychain.
    /// Returns every value written.
    static func workload(random: inout SeededRandom) throws -> [String] {
        var written: [String] = []
        func distinct(_ tag: String) -> String {
            let value = tag + "-" + random.token(length: 28)
            written.append(value)
            return value
        }
        for index in 0..<60 {
            let isInternet = index % 2 == 1
            var item: [String: Any] = [
                kSecAttrAccount as String: distinct("acct"),
                kSecAttrLabel as String: distinct("labl"),
                kSecAttrComment as String: distinct("icmt"),
                kSecAttrDescription as String: distinct("desc"),
                kSecValueData as String: Data(distinct("secret").utf8),
            ]
            if isInternet {
                item[kSecClass as String] = kSecClassInternetPassword
                item[kSecAttrServer as String] = distinct("srvr") + ".example"
                item[kSecAttrSecurityDomain as String] = distinct("sdmn")
                item[kSecAttrPath as String] = "/" + distinct("path")
                item[kSecAttrProtocol as String] = kSecAttrProtocolHTTPS
                item[kSecAttrPort as String] = 8443
            } else {
                item[kSecClass as String] = kSecClassGenericPassword
                item[kSecAttrService as String] = distinct("svce")
                item[kSecAttrGeneric as String] = Data(distinct("gena").utf8)
            }
            let account = item[kSecAttrAccount as String]!
            let itemClass = item[kSecClass as String]!
            try #require(SecItemAdd(item as CFDictionary, nil) == errSecSuccess)
            let match: [String: Any] = [kSecClass as String: itemClass, kSecAttrAccount as String: account]
            switch index % 3 {
            case 1:
                let changes: [String: Any] = [kSecValueData as String: Data(distinct("newsecret").utf8),
                                              kSecAttrLabel as String: distinct("newlabl"),
                                              kSecAttrComment as String: distinct("newicmt")]
                try #require(SecItemUpdate(match as CFDictionary, changes as CFDictionary) == errSecSuccess)
            case 2:
                try #require(SecItemDelete(match as CFDictionary) == errSecSuccess)
            default:
                break
            }
        }
        return written
    }

    /// The encodings a value could be found in.
    static func needles(_ values: [String]) -> [(String, [UInt8])] {
        values.flatMap { value -> [(String, [UInt8])] in
            [("UTF-8 \(value)", Array(value.utf8)),
             ("UTF-16LE \(value)", value.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }),
             ("UTF-16BE \(value)", value.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }),
             ("UTF-8 prefix \(value.prefix(14))", Array(value.prefix(14).utf8))]
        }
    }

    /// The files of the keychain that exist now, with their bytes.
    static func files(of url: URL) -> [(String, [UInt8])] {
        ["", "-wal", "-shm", "-journal"].compactMap { suffix in
            FileManager.default.contents(atPath: url.path + suffix).map { (url.lastPathComponent + suffix, [UInt8]($0)) }
        }
    }

    @Test("After adds, updates and deletes, no stored value appears in the file, the WAL or the SHM, in UTF-8 or UTF-16")
    func nothingInTheFiles() throws {
        let keychain = try TestKeychain()
        var random = SeededRandom(seed: 0xA7_2E57)
        let written = try keychain.run { try Self.workload(random: &random) }
        #expect(written.count > 400)
        let files = Self.files(of: keychain.file.url)
        #expect(files.map(\.0).contains { $0.hasSuffix("-wal") }, "the test expects WAL mode, so that the log is scanned too")
        let found = ByteScanner(needles: Self.needles(written)).scan(files)
        #expect(found.isEmpty, "found in the keychain files: \(found.prefix(10))")
    }

    @Test("After a checkpoint moves the log into the main file, no stored value appears there either")
    func nothingAfterCheckpoint() throws {
        let home = try HermeticHome()
        var random = SeededRandom(seed: 0x0C4E_C4B0)
        var written: [String] = []
        do {
            // The workload's connection is closed at the end of this scope, so that nothing
            // holds the log open when the checkpoint runs.
            let context = try home.openKeychain()
            written = try KeychainContext.withContext(context) { try Self.workload(random: &random) }
        }
        try SQLiteShell(database: home.keychainURL).checkpoint()
        let main = try #require(FileManager.default.contents(atPath: home.keychainURL.path))
        #expect(main.count > 8192, "the checkpoint should have moved the items into the main file")
        let found = ByteScanner(needles: Self.needles(written)).scan(Self.files(of: home.keychainURL))
        #expect(found.isEmpty, "found in the keychain files: \(found.prefix(10))")
    }

    @Test("Negative control: the scanner finds a value that is written in the clear")
    func scannerFindsPlaintext() throws {
        var random = SeededRandom(seed: 7)
        let value = "acct-" + random.token(length: 28)
        let utf16 = Data(value.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        let haystack = [UInt8](Data(count: 1000) + Data(value.utf8) + Data(repeating: 0x41, count: 10)) + [UInt8](utf16)
        let found = ByteScanner(needles: Self.needles([value])).scan([("plain", haystack)])
        #expect(found.count == 3, "\(found)") // UTF-8, its prefix, UTF-16LE
    }

    @Test("The items the workload kept are still there, so the scan looked at a populated keychain")
    func workloadKeptItems() throws {
        let keychain = try TestKeychain()
        var random = SeededRandom(seed: 99)
        _ = try keychain.run { try Self.workload(random: &random) }
        var result: CFTypeRef?
        for itemClass in [kSecClassGenericPassword, kSecClassInternetPassword] {
            let status = keychain.run {
                SecItemCopyMatching([kSecClass as String: itemClass, kSecMatchLimit as String: kSecMatchLimitAll,
                                     kSecReturnAttributes as String: true] as CFDictionary, &result)
            }
            #expect(status == errSecSuccess)
            #expect((result as? [[String: Any]])?.count == 20)
        }
    }
}

/// Finds many byte strings in many files in one pass per file: needles are bucketed by their first
/// eight bytes, and each file position is looked up once.
struct ByteScanner {
    private var buckets: [UInt64: [(String, [UInt8])]] = [:]

    init(needles: [(String, [UInt8])]) {
        for needle in needles {
            precondition(needle.1.count >= 8, "needles are at least 8 bytes")
            buckets[Self.key(needle.1, 0), default: []].append(needle)
        }
    }

    private static func key(_ bytes: [UInt8], _ offset: Int) -> UInt64 {
        var key: UInt64 = 0
        for i in 0..<8 { key = key << 8 | UInt64(bytes[offset + i]) }
        return key
    }

    /// The names of the needles found, with the file and offset where each was.
    func scan(_ files: [(String, [UInt8])]) -> [String] {
        var found: [String] = []
        for (file, bytes) in files where bytes.count >= 8 {
            var key: UInt64 = 0
            for i in 0..<7 { key = key << 8 | UInt64(bytes[i]) }
            for start in 0...(bytes.count - 8) {
                key = key << 8 | UInt64(bytes[start + 7])
                guard let candidates = buckets[key] else { continue }
                for (name, needle) in candidates where start + needle.count <= bytes.count
                    && bytes[start..<start + needle.count].elementsEqual(needle) {
                    found.append("\(name) in \(file) at \(start)")
                }
            }
        }
        return found
    }
}
