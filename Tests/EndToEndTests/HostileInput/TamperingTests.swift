import Foundation
import KeychainServices
import KeychainStore
import Testing

/// Someone with write access to the keychain file changes it behind the engine's back (with the
/// `sqlite3` tool). Whatever they change, a read of the damaged item is an error status —
/// `errSecDecode` — never data, and the other items stay readable.
@Suite("Tampering with the keychain file is detected")
struct TamperingTests {
    /// A keychain holding three generic passwords, "victim", "neighbour" and "bystander".
    ///
    /// Every read after the damage goes through a freshly opened keychain, as a new process would
    /// see the file, so these tests prove detection only (what an already open connection sees is
    /// CrossProcessVisibilityTests' subject).
    struct Fixture {
        let home: HermeticHome
        let shell: SQLiteShell
        /// Persistent identities (the `persistref` column) by account.
        let references: [String: Data]
        static let accounts = ["victim", "neighbour", "bystander"]
        static let service = "tamper.example"

        init() throws {
            home = try HermeticHome()
            shell = SQLiteShell(database: home.keychainURL)
            let context = try home.openKeychain()
            var references: [String: Data] = [:]
            for account in Self.accounts {
                var reference: CFTypeRef?
                let status = KeychainContext.withContext(context) {
                    SecItemAdd([kSecClass as String: kSecClassGenericPassword,
                                kSecAttrService as String: "tamper.example",
                                kSecAttrAccount as String: account,
                                kSecAttrLabel as String: "label of \(account)",
                                kSecValueData as String: Data(Fixture.secret(account).utf8),
                                kSecReturnPersistentRef as String: true] as CFDictionary, &reference)
                }
                try #require(status == errSecSuccess)
                let persistent = try #require(reference as? Data)
                try #require(persistent.count == 20)
                references[account] = Data(persistent.dropFirst(4))
            }
            self.references = references
        }

        /// Runs SecItem calls against a freshly opened keychain.
        func run<T>(_ body: () -> T) throws -> T {
            KeychainContext.withContext(try home.openKeychain(), body)
        }

        static func secret(_ account: String) -> String { "secret-of-\(account)-Zq81" }

        func reference(_ account: String) -> Data { references[account]! }

        /// Reads one account's item with its data and attributes: (status, data, account attribute).
        /// The search names the service unless `service` is nil.
        func read(_ account: String, service: String? = Fixture.service, data: Bool = true,
                  attributes: Bool = true) throws -> (OSStatus, Data?, String?) {
            var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                        kSecAttrAccount as String: account,
                                        kSecReturnData as String: data,
                                        kSecReturnAttributes as String: attributes]
            query[kSecAttrService as String] = service
            var result: CFTypeRef?
            let status = try run { SecItemCopyMatching(query as CFDictionary, &result) }
            if let dictionary = result as? [String: Any] {
                return (status, dictionary[kSecValueData as String] as? Data, dictionary[kSecAttrAccount as String] as? String)
            }
            return (status, result as? Data, nil)
        }

        /// The accounts other than `damaged` still read back with their own data.
        func othersIntact(except damaged: String) throws {
            for account in Self.accounts where account != damaged {
                let (status, data, name) = try read(account)
                #expect(status == errSecSuccess, "\(account) became unreadable")
                #expect(data == Data(Self.secret(account).utf8))
                #expect(name == account)
            }
        }

        /// No read result anywhere contains the victim's or anyone's data under the wrong account.
        func expectDamageReported(_ account: String) throws {
            let (status, data, name) = try read(account)
            #expect(status == errSecDecode)
            #expect(data == nil)
            #expect(name == nil)
        }
    }

    /// Byte positions in a sealed blob: the format byte, inside the wrapped item key, the content
    /// nonce, the ciphertext, and the last byte (the tag). Negative values count from the end.
    static let positions = [0, 1, 30, 61, 62, 70, 80, -1, -8]

    static func flip(_ blob: Data, at position: Int) -> Data {
        var bytes = [UInt8](blob)
        let index = position >= 0 ? position : bytes.count + position
        bytes[index] ^= 0x5A
        return Data(bytes)
    }

    @Test("Flipping a byte of an item's sealed attributes makes reading it errSecDecode; the other items stay readable",
          arguments: positions)
    func flippedMeta(position: Int) throws {
        let fixture = try Fixture()
        let reference = fixture.reference("victim")
        let meta = try #require(try fixture.shell.blob("meta", table: "genp", reference: reference))
        try fixture.shell.setBlob("meta", table: "genp", reference: reference, to: Self.flip(meta, at: position))
        try fixture.expectDamageReported("victim")
        // Without asking for data the attributes still have to open: same answer.
        #expect(try fixture.read("victim", data: false).0 == errSecDecode)
        try fixture.othersIntact(except: "victim")
    }

    @Test("Flipping a byte of an item's sealed secret makes reading its data errSecDecode; the other items stay readable",
          arguments: positions)
    func flippedSecret(position: Int) throws {
        let fixture = try Fixture()
        let reference = fixture.reference("victim")
        let secret = try #require(try fixture.shell.blob("secret", table: "genp", reference: reference))
        try fixture.shell.setBlob("secret", table: "genp", reference: reference, to: Self.flip(secret, at: position))
        try fixture.expectDamageReported("victim")
        try fixture.othersIntact(except: "victim")
    }

    @Test("A secret blob copied from another row does not open in its new row (row identity is authenticated)")
    func secretMovedToAnotherRow() throws {
        let fixture = try Fixture()
        let stolen = try #require(try fixture.shell.blob("secret", table: "genp", reference: fixture.reference("neighbour")))
        try fixture.shell.setBlob("secret", table: "genp", reference: fixture.reference("victim"), to: stolen)
        try fixture.expectDamageReported("victim")
        try fixture.othersIntact(except: "victim")
    }

    @Test("An attribute blob copied from another row does not open in its new row")
    func metaMovedToAnotherRow() throws {
        let fixture = try Fixture()
        let stolen = try #require(try fixture.shell.blob("meta", table: "genp", reference: fixture.reference("neighbour")))
        try fixture.shell.setBlob("meta", table: "genp", reference: fixture.reference("victim"), to: stolen)
        try fixture.expectDamageReported("victim")
        try fixture.othersIntact(except: "victim")
    }

    @Test("Both blobs of another row copied together still do not open in the victim's row")
    func wholeRowContentsMoved() throws {
        let fixture = try Fixture()
        let neighbour = fixture.reference("neighbour"), victim = fixture.reference("victim")
        let meta = try #require(try fixture.shell.blob("meta", table: "genp", reference: neighbour))
        let secret = try #require(try fixture.shell.blob("secret", table: "genp", reference: neighbour))
        try fixture.shell.setBlob("meta", table: "genp", reference: victim, to: meta)
        try fixture.shell.setBlob("secret", table: "genp", reference: victim, to: secret)
        try fixture.expectDamageReported("victim")
        try fixture.othersIntact(except: "victim")
    }

    @Test("Relabelling an item's protection class in its row is detected (the class is authenticated with the key)")
    func protectionClassRelabelled() throws {
        let fixture = try Fixture()
        let current = try fixture.shell.run("SELECT keyclass FROM genp WHERE persistref = X'\(fixture.reference("victim").hexString)';")
        let other = (Int(current) ?? 0) == 1 ? 2 : 1
        try fixture.shell.setInteger("keyclass", table: "genp", reference: fixture.reference("victim"), to: other)
        let (status, data, _) = try fixture.read("victim")
        #expect(status != errSecSuccess)
        #expect(data == nil)
        try fixture.othersIntact(except: "victim")
    }

    @Test("A truncated or emptied blob is errSecDecode, not a crash", arguments: ["meta", "secret"], [0, 1, 40, 88])
    func truncatedBlob(column: String, keep: Int) throws {
        let fixture = try Fixture()
        let reference = fixture.reference("victim")
        let blob = try #require(try fixture.shell.blob(column, table: "genp", reference: reference))
        try fixture.shell.setBlob(column, table: "genp", reference: reference, to: blob.prefix(keep))
        try fixture.expectDamageReported("victim")
        try fixture.othersIntact(except: "victim")
    }

    @Test("Removing a live item's secret blob is detected, not read as an item without data")
    func secretRemoved() throws {
        let fixture = try Fixture()
        try fixture.shell.setBlob("secret", table: "genp", reference: fixture.reference("victim"), to: nil)
        try fixture.expectDamageReported("victim")
        try fixture.othersIntact(except: "victim")
    }

    /// A swapped index column misleads only the searches that go through it: a search by account
    /// alone goes through `i_acct`, one by service and account through `pk` (schema 3).
    @Test("Swapping two rows' blind indexes does not make a search for one account return the other's item",
          arguments: [("i_acct", false), ("pk", true)])
    func blindIndexesSwapped(column: String, byService: Bool) throws {
        let fixture = try Fixture()
        let victim = fixture.reference("victim"), neighbour = fixture.reference("neighbour")
        let victimIndex = try #require(try fixture.shell.blob(column, table: "genp", reference: victim))
        let neighbourIndex = try #require(try fixture.shell.blob(column, table: "genp", reference: neighbour))
        // By way of a third value: `pk` is UNIQUE.
        try fixture.shell.setBlob(column, table: "genp", reference: victim, to: Data(repeating: 0xEE, count: 48))
        try fixture.shell.setBlob(column, table: "genp", reference: neighbour, to: victimIndex)
        try fixture.shell.setBlob(column, table: "genp", reference: victim, to: neighbourIndex)
        // A search for "victim" through the swapped column lands on the neighbour's row, whose
        // sealed attributes say "neighbour": that is a damaged index, and must not hand out the
        // neighbour's secret.
        let (status, data, name) = try fixture.read("victim", service: byService ? Fixture.service : nil)
        #expect(status == errSecDecode)
        #expect(data != Data(Fixture.secret("neighbour").utf8))
        #expect(name != "neighbour")
        // A search through the other, intact, column still finds the victim's own item.
        let (otherStatus, otherData, otherName) = try fixture.read("victim", service: byService ? nil : Fixture.service)
        #expect(otherStatus == errSecSuccess)
        #expect(otherData == Data(Fixture.secret("victim").utf8))
        #expect(otherName == "victim")
    }

    @Test("An update aimed at one account never changes another account's item, even with swapped blind indexes")
    func updateAfterIndexSwap() throws {
        let fixture = try Fixture()
        let victim = fixture.reference("victim"), neighbour = fixture.reference("neighbour")
        let victimIndex = try #require(try fixture.shell.blob("i_acct", table: "genp", reference: victim))
        let neighbourIndex = try #require(try fixture.shell.blob("i_acct", table: "genp", reference: neighbour))
        try fixture.shell.setBlob("i_acct", table: "genp", reference: victim, to: neighbourIndex)
        try fixture.shell.setBlob("i_acct", table: "genp", reference: neighbour, to: victimIndex)
        let status = try fixture.run {
            SecItemUpdate([kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "victim"] as CFDictionary,
                          [kSecValueData as String: Data("overwritten".utf8)] as CFDictionary)
        }
        #expect(status != errSecSuccess)
        // The neighbour's secret, read through its persistent reference (not its index), is unchanged.
        var result: CFTypeRef?
        let read = try fixture.run {
            SecItemCopyMatching([kSecValuePersistentRef as String: Data("genp".utf8) + neighbour,
                                 kSecReturnData as String: true] as CFDictionary, &result)
        }
        #expect(read == errSecSuccess)
        #expect(result as? Data == Data(Fixture.secret("neighbour").utf8))
    }

    @Test("A search over the whole class skips the damaged item and returns only intact ones, each with its own data")
    func searchAllAfterDamage() throws {
        let fixture = try Fixture()
        let reference = fixture.reference("victim")
        let secret = try #require(try fixture.shell.blob("secret", table: "genp", reference: reference))
        try fixture.shell.setBlob("secret", table: "genp", reference: reference, to: Self.flip(secret, at: -1))
        var result: CFTypeRef?
        let status = try fixture.run {
            SecItemCopyMatching([kSecClass as String: kSecClassGenericPassword,
                                 kSecMatchLimit as String: kSecMatchLimitAll,
                                 kSecReturnData as String: true,
                                 kSecReturnAttributes as String: true] as CFDictionary, &result)
        }
        #expect(status == errSecSuccess)
        let items = try #require(result as? [[String: Any]])
        let pairs = items.map { ($0[kSecAttrAccount as String] as? String, $0[kSecValueData as String] as? Data) }
        #expect(pairs.map(\.0) == ["neighbour", "bystander"])
        for (account, data) in pairs {
            #expect(data == Data(Fixture.secret(account ?? "").utf8))
        }
    }
}
