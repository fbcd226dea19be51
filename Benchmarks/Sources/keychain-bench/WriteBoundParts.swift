import Crypto
import Foundation
import Glibc
import KeychainServices

extension WriteBound {
    /// A bare connection to a keychain file with the engine's durability settings, writing
    /// generic-password rows through prepared statements, each in its own transaction.
    final class BareGenericPasswordTable {
        /// The columns a generic password with a service, an account and data fills.
        struct Row {
            var persistentReference: [UInt8]
            var primaryKey: [UInt8]
            var accessGroup: [UInt8]
            var account: [UInt8]
            var service: [UInt8]
            var meta: [UInt8]
            var secret: [UInt8]

            /// Random bytes of the lengths the keychain file holds (a blind index is 16 bytes, the
            /// primary key three of them).
            init(_ sizes: LookupBound.Sizes) {
                func random(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255) } }
                self.init(persistentReference: random(sizes.persistentReference), primaryKey: random(48),
                          accessGroup: random(16), account: random(16), service: random(16),
                          meta: random(sizes.attributes), secret: random(sizes.secret))
            }

            init(persistentReference: [UInt8], primaryKey: [UInt8], accessGroup: [UInt8], account: [UInt8],
                 service: [UInt8], meta: [UInt8], secret: [UInt8]) {
                self.persistentReference = persistentReference; self.primaryKey = primaryKey
                self.accessGroup = accessGroup; self.account = account; self.service = service
                self.meta = meta; self.secret = secret
            }
        }

        let db: RawSQLite
        /// The protection class the benchmark's items get (the default, after first unlock).
        static let protectionClass: Int64 = 6

        init(path: String) throws {
            db = try RawSQLite(path: path)
            // What the engine sets on its connections that bears on a write.
            try db.execute("PRAGMA synchronous = FULL; PRAGMA secure_delete = ON; PRAGMA journal_mode = WAL;")
        }

        func insert(_ row: Row) throws {
            let result = try db.run("INSERT INTO genp (persistref, pk, agrp, keyclass, i_acct, i_svce, meta, secret) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", [
                .blob(row.persistentReference), .blob(row.primaryKey), .blob(row.accessGroup), .int(Self.protectionClass),
                .blob(row.account), .blob(row.service), .blob(row.meta), .blob(row.secret),
            ])
            guard result.changes == 1 else { throw BenchFailure("write-bound: an insert changed nothing") }
        }

        /// Inserts the filler items, made by `work`, in one transaction.
        func fill(items: Int, with work: EssentialWork) throws {
            try db.execute("BEGIN")
            for i in 0..<items { try insert(work.add(account: WorkloadKeys.filler(i), secret: WorkloadKeys.secret(i), asCaller: false)) }
            try db.execute("COMMIT")
        }

        /// The engine's way of writing since it refreshes its lock state inside the write
        /// transaction: `BEGIN IMMEDIATE`, `PRAGMA data_version`, the insert, `COMMIT`.
        func insertInTransaction(_ row: Row) throws {
            try db.execute("BEGIN IMMEDIATE")
            _ = try db.run("PRAGMA data_version", [])
            try insert(row)
            try db.execute("COMMIT")
        }

        /// Replaces both sealed parts of the row with this account index.
        func update(accountIndex: [UInt8], meta: [UInt8], secret: [UInt8]) throws {
            let result = try db.run("UPDATE genp SET meta = ?, secret = ? WHERE i_acct = ?", [.blob(meta), .blob(secret), .blob(accountIndex)])
            guard result.changes == 1 else { throw BenchFailure("write-bound: an update changed nothing") }
        }

        /// The persistent reference and sealed attributes of the row with these indexes.
        func find(accountIndex: [UInt8], serviceIndex: [UInt8]) throws -> (reference: [UInt8], meta: [UInt8]) {
            guard let row = try db.firstRow("SELECT persistref, meta FROM genp WHERE i_acct = ? AND i_svce = ?",
                                             [.blob(accountIndex), .blob(serviceIndex)], columns: 2) else {
                throw BenchFailure("write-bound: an essential update found no row")
            }
            return (row[0], row[1])
        }

        /// Replaces both sealed parts of the row with these indexes if its attributes are still
        /// the ones read (so no transaction has to span the read and the write).
        func replace(accountIndex: [UInt8], serviceIndex: [UInt8], oldMeta: [UInt8], meta: [UInt8], secret: [UInt8]) throws {
            let result = try db.run("UPDATE genp SET meta = ?, secret = ? WHERE i_acct = ? AND i_svce = ? AND meta = ?",
                                    [.blob(meta), .blob(secret), .blob(accountIndex), .blob(serviceIndex), .blob(oldMeta)])
            guard result.changes == 1 else { throw BenchFailure("write-bound: an essential update changed nothing") }
        }
    }

    /// The work of an add and of an update that the design and the API demand, done the cheapest
    /// way this benchmark knows: the caller's dictionaries bridged `as CFDictionary` (when asked),
    /// the blind indexes that change with the item (HMAC-SHA-256 from precomputed pads, as the
    /// engine computes them; the service's and the access group's, which repeat, computed once, as
    /// the engine remembers them), item keys and nonces from one read of the system's random
    /// source per call (as the engine draws them), AES-GCM through swift-crypto, each part's key
    /// sealed under the class key. It encodes no attributes, checks no lock state, keeps no digest
    /// and reads nothing back; the engine does all of those, so its calls can only be slower.
    final class EssentialWork {
        let classKey = SymmetricKey(size: .bits256)
        let index = PaddedHMAC(key: SymmetricKey(size: .bits256))
        let accessGroup = Array("swift-keychain.bench".utf8)
        let service = Array(WorkloadKeys.service.utf8)
        let serviceIndex: [UInt8], groupIndex: [UInt8]
        let secretLength: Int, referenceLength: Int
        /// Stands in for the encoded attributes (their encoding is work the bound leaves out).
        let encodedAttributes: Data
        private let random: RandomSource

        init(sizes: LookupBound.Sizes) throws {
            secretLength = sizes.secret - SealedPart.overhead
            referenceLength = sizes.persistentReference
            guard sizes.attributes > SealedPart.overhead, secretLength >= 24 else {
                throw BenchFailure("write-bound: sealed parts too short for their content")
            }
            encodedAttributes = Data(repeating: 0x41, count: sizes.attributes - SealedPart.overhead)
            serviceIndex = index.mac(Array("svce\0".utf8) + service)
            groupIndex = index.mac(Array("agrp\0".utf8) + accessGroup)
            random = try RandomSource()
        }

        /// An add's work: the row to insert.
        func add(account: String, secret: [UInt8], asCaller: Bool) throws -> BareGenericPasswordTable.Row {
            let secretData = Data(secret)
            if asCaller {
                let query: [String: Any] = [
                    kSecClass as String: kSecClassGenericPassword,
                    kSecAttrService as String: WorkloadKeys.service,
                    kSecAttrAccount as String: account,
                    kSecValueData as String: secretData,
                ]
                try expectCount(query as CFDictionary, 4)
            }
            let accountBytes = Array(account.utf8)
            let accountIndex = accountIndex(accountBytes)
            // The engine's primary key: the service's index, the account's, then the MAC of the whole key.
            let primaryKey = serviceIndex + accountIndex
                + index.mac(Array("pk:genp".utf8) + lengthPrefixed(accessGroup) + lengthPrefixed(service) + lengthPrefixed(accountBytes))
            // The persistent reference and both parts' keys and nonces in one draw.
            let perPart = SealedPart.randomLength
            let drawn = try random.bytes(referenceLength + 2 * perPart)
            let reference = Array(drawn[0..<referenceLength])
            let metaRandom = drawn[referenceLength..<referenceLength + perPart], secretRandom = drawn[(referenceLength + perPart)...]
            return BareGenericPasswordTable.Row(
                persistentReference: reference, primaryKey: primaryKey, accessGroup: groupIndex,
                account: accountIndex, service: serviceIndex,
                meta: try seal(encodedAttributes, part: "meta", reference: reference, random: metaRandom),
                secret: try seal(padded(secret), part: "secret", reference: reference, random: secretRandom))
        }

        /// An update's work before it reads the row: the caller's two dictionaries (when asked)
        /// and the indexes the row is found by.
        func updateIndexes(account: String, secret: [UInt8], asCaller: Bool) throws -> (account: [UInt8], service: [UInt8]) {
            if asCaller {
                let query: [String: Any] = [
                    kSecClass as String: kSecClassGenericPassword,
                    kSecAttrService as String: WorkloadKeys.service,
                    kSecAttrAccount as String: account,
                ]
                let changes: [String: Any] = [kSecValueData as String: Data(secret)]
                try expectCount(query as CFDictionary, 3)
                try expectCount(changes as CFDictionary, 1)
            }
            return (accountIndex(Array(account.utf8)), serviceIndex)
        }

        /// An update's work on the row it read: its attributes opened (their key unwrapped), sealed
        /// again under the same key (their wrapping kept, as the engine keeps it), the new secret
        /// sealed under a fresh key; the nonces and that key from one draw.
        func rewrite(reference: [UInt8], meta: [UInt8], secret: [UInt8]) throws -> (meta: [UInt8], secret: [UInt8]) {
            let keyEnd = 1 + SealedPart.wrappedKeyLength
            guard meta.count > keyEnd else { throw BenchFailure("write-bound: sealed attributes too short") }
            let keyBytes = try AES.GCM.open(AES.GCM.SealedBox(combined: meta[1..<keyEnd]), using: classKey,
                                            authenticating: SealedPart.wrapAAD("meta", reference))
            let itemKey = SymmetricKey(data: keyBytes)
            let attributes = try AES.GCM.open(AES.GCM.SealedBox(combined: meta[keyEnd...]), using: itemKey,
                                              authenticating: SealedPart.contentAAD("meta", reference))
            let drawn = try random.bytes(SealedPart.nonceLength + SealedPart.randomLength)
            var newMeta = Array(meta[..<keyEnd])
            newMeta += try AES.GCM.seal(attributes, using: itemKey, nonce: AES.GCM.Nonce(data: drawn[0..<SealedPart.nonceLength]),
                                        authenticating: SealedPart.contentAAD("meta", reference)).combined!
            return (newMeta, try seal(padded(secret), part: "secret", reference: reference, random: drawn[SealedPart.nonceLength...]))
        }

        /// A whole update: its work, the row read, the row written.
        func update(account: String, secret: [UInt8], asCaller: Bool, in table: BareGenericPasswordTable) throws {
            let indexes = try updateIndexes(account: account, secret: secret, asCaller: asCaller)
            let found = try table.find(accountIndex: indexes.account, serviceIndex: indexes.service)
            let changed = try rewrite(reference: found.reference, meta: found.meta, secret: secret)
            try table.replace(accountIndex: indexes.account, serviceIndex: indexes.service, oldMeta: found.meta,
                              meta: changed.meta, secret: changed.secret)
        }

        func accountIndex(_ account: [UInt8]) -> [UInt8] { index.mac(Array("acct\0".utf8) + account) }

        private func seal(_ content: Data, part: String, reference: [UInt8], random: ArraySlice<UInt8>) throws -> [UInt8] {
            try SealedPart.seal(content, part: part, reference: reference, classKey: classKey, random: random)
        }

        /// The secret's content, of the length the keychain seals.
        private func padded(_ secret: [UInt8]) -> Data {
            var content = Data(secret)
            content.append(Data(count: secretLength - secret.count))
            return content
        }

        private func lengthPrefixed(_ bytes: [UInt8]) -> [UInt8] {
            let n = UInt32(bytes.count)
            return [UInt8(truncatingIfNeeded: n), UInt8(truncatingIfNeeded: n >> 8),
                    UInt8(truncatingIfNeeded: n >> 16), UInt8(truncatingIfNeeded: n >> 24)] + bytes
        }

        private func expectCount(_ dictionary: CFDictionary, _ count: Int) throws {
            guard dictionary.count == count else { throw BenchFailure("write-bound: the caller's bridging lost something") }
        }
    }

    /// The system's random source read once per draw, one system call like the engine's
    /// `getrandom` (Glibc's module does not export `getrandom` to Swift).
    final class RandomSource {
        private let descriptor: Int32

        init() throws {
            descriptor = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw BenchFailure("write-bound: cannot open /dev/urandom") }
        }

        deinit { close(descriptor) }

        func bytes(_ count: Int) throws -> [UInt8] {
            var out = [UInt8](repeating: 0, count: count)
            let read = out.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, count) }
            guard read == count else { throw BenchFailure("write-bound: a short read of /dev/urandom") }
            return out
        }
    }

    /// HMAC-SHA-256 truncated to 16 bytes, from two SHA-256 states that have absorbed the key's
    /// pads once (the engine's blind indexes are computed this way; its type is internal to it).
    struct PaddedHMAC {
        private let inner: SHA256, outer: SHA256

        init(key: SymmetricKey) {
            var block = [UInt8](repeating: 0, count: SHA256.blockByteCount)
            key.withUnsafeBytes { bytes in block.withUnsafeMutableBytes { $0.copyMemory(from: bytes) } }
            var inner = SHA256(), outer = SHA256()
            inner.update(data: block.map { $0 ^ 0x36 })
            outer.update(data: block.map { $0 ^ 0x5c })
            self.inner = inner
            self.outer = outer
        }

        func mac(_ input: [UInt8]) -> [UInt8] {
            var innerHash = inner
            input.withUnsafeBytes { innerHash.update(bufferPointer: $0) }
            var outerHash = outer
            innerHash.finalize().withUnsafeBytes { outerHash.update(bufferPointer: $0) }
            return outerHash.finalize().withUnsafeBytes { Array($0.prefix(16)) }
        }
    }
}
