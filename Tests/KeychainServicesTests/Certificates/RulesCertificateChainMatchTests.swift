import Foundation
import KeychainServices
import KeychainStore
import KeychainTestSupport
import Testing

/// `kSecMatchIssuers` and `kSecMatchEmailAddressIfPresent` in certificate and identity searches,
/// as Security's daemon applies them (SecItemServer.c): an issuer matches through the chain of
/// certificates in the keychain, up to ten levels above the certificate's own issuer, skipping
/// self-issued certificates; an e-mail address keeps certificates that carry it or carry none.
/// Certificates are made by openssl, so scripts/sanitizers.sh skips the suite.
@Suite struct RulesCertificateChainMatchTests {
    let fixtures: OpenSSLFixtures
    let keychain: TestKeychain

    init() throws {
        fixtures = try OpenSSLFixtures()
        keychain = try TestKeychain()
    }

    func certificate(_ name: String) throws -> SecCertificate {
        try #require(SecCertificateCreateWithData(nil, try fixtures.data("\(name).der") as CFData))
    }

    func subject(_ name: String) throws -> Data {
        try #require(SecCertificateCopyNormalizedSubjectSequence(try certificate(name))) as Data
    }

    /// A chain `c0` (self-signed root) ← `c1` ← … ← `c<depth>` of CAs.
    func makeChain(_ depth: Int) throws {
        try fixtures.makeCA("c0", subject: "/CN=Chain Root/O=Swift Keychain Tests")
        for level in 1...depth {
            try fixtures.makeLeaf("c\(level)", subject: "/CN=Chain CA \(level)/O=Swift Keychain Tests", issuer: "c\(level - 1)",
                                  extensions: ["basicConstraints = critical,CA:TRUE", "keyUsage = critical,keyCertSign"])
        }
    }

    static var all: Item { item([kSecClass: kSecClassCertificate, kSecReturnRef: true, kSecMatchLimit: kSecMatchLimitAll]) }

    @Test func issuersAreFollowedThroughTheKeychainsCertificates() throws {
        try makeChain(2)
        try fixtures.makeLeaf("leaf", subject: "/CN=leaf.example.com", issuer: "c2")
        try fixtures.makeCA("stranger", subject: "/CN=Unrelated CA")
        try fixtures.makeLeaf("elsewhere", subject: "/CN=elsewhere.example.com", issuer: "stranger")
        try keychain.run { () throws in
            for name in ["c0", "c1", "leaf", "elsewhere"] { #expect(add(item([kSecValueRef: try certificate(name)])) == errSecSuccess) }
            // c2 is not in the keychain yet: the leaf's issuer (c2) has no certificate to climb.
            let byRoot = Self.all.with([kSecMatchIssuers: [try subject("c0")]])
            #expect(Set(copyMatching(byRoot).result as? [SecCertificate] ?? []) == [try certificate("c0"), try certificate("c1")])
            #expect(add(item([kSecValueRef: try certificate("c2")])) == errSecSuccess)
            // With c2 present the leaf reaches the root: leaf → c2 → c1 → c0.
            let expected: Set = [try certificate("c0"), try certificate("c1"), try certificate("c2"), try certificate("leaf")]
            #expect(Set(copyMatching(byRoot).result as? [SecCertificate] ?? []) == expected)
            // A name in the middle keeps what lies below it; the leaf's own issuer keeps the leaf.
            let byMiddle = Self.all.with([kSecMatchIssuers: [try subject("c1")]])
            #expect(Set(copyMatching(byMiddle).result as? [SecCertificate] ?? []) == [try certificate("c2"), try certificate("leaf")])
            #expect(copyMatching(Self.all.with([kSecMatchIssuers: [try subject("c2")]])).result as? [SecCertificate] == [try certificate("leaf")])
            // The unrelated chain is not reached; an unknown name finds nothing.
            #expect(copyMatching(Self.all.with([kSecMatchIssuers: [try subject("stranger")]])).result as? [SecCertificate] == [try certificate("elsewhere")])
            #expect(copyMatching(Self.all.with([kSecMatchIssuers: [try subject("leaf")]])).status == errSecItemNotFound)
            // One match is enough under kSecMatchLimitOne.
            let one = copyMatching(byRoot.with([kSecMatchLimit: kSecMatchLimitOne]))
            #expect(one.status == errSecSuccess && one.result is SecCertificate)
        }
    }

    @Test func theWalkFollowsOnlyCertificatesTheCallerCanSee() throws {
        try makeChain(2)
        try fixtures.makeLeaf("leaf", subject: "/CN=grouped.example.com", issuer: "c2")
        let keychain = try TestKeychain(identity: ClientIdentity(accessGroups: ["team.app", "team.other"]))
        try keychain.run { () throws in
            #expect(add(item([kSecValueRef: try certificate("leaf"), kSecAttrAccessGroup: "team.app"])) == errSecSuccess)
            #expect(add(item([kSecValueRef: try certificate("c2"), kSecAttrAccessGroup: "team.other"])) == errSecSuccess)
            #expect(add(item([kSecValueRef: try certificate("c1"), kSecAttrAccessGroup: "team.app"])) == errSecSuccess)
        }
        let byRoot = Self.all.with([kSecMatchIssuers: [try subject("c0")]])
        let leaf = try certificate("leaf")
        // With both groups the leaf reaches the root through c2 (in the other group) and c1.
        try keychain.run { () throws in
            #expect((copyMatching(byRoot).result as? [SecCertificate] ?? []).contains(leaf))
        }
        // A caller of team.app alone cannot see c2, so the walk stops at the leaf's issuer.
        try keychain.run(as: ClientIdentity(accessGroups: ["team.app"])) { () throws in
            let found = copyMatching(byRoot).result as? [SecCertificate] ?? []
            #expect(!found.contains(leaf))
            #expect(found.contains(try certificate("c1")))
        }
    }

    @Test func theWalkStopsTenCertificatesAboveTheIssuer() throws {
        try makeChain(11)
        try fixtures.makeLeaf("leaf", subject: "/CN=deep.example.com", issuer: "c11")
        try keychain.run { () throws in
            for level in 1...11 { #expect(add(item([kSecValueRef: try certificate("c\(level)")])) == errSecSuccess) }
            #expect(add(item([kSecValueRef: try certificate("leaf")])) == errSecSuccess)
            let leaf = try certificate("leaf")
            // The leaf's issuer is c11; c1 is ten steps above it (c11 → c10 → … → c1), c0 eleven.
            let byC1 = copyMatching(Self.all.with([kSecMatchIssuers: [try subject("c1")]])).result as? [SecCertificate] ?? []
            #expect(byC1.contains(leaf))
            let byRoot = copyMatching(Self.all.with([kSecMatchIssuers: [try subject("c0")]])).result as? [SecCertificate] ?? []
            #expect(!byRoot.contains(leaf), "eleven levels up is beyond Security's depth of ten")
            let c10 = try certificate("c10"), c1 = try certificate("c1")
            #expect(byRoot.contains(c10) && byRoot.contains(c1))
        }
    }

    @Test func identitySearchesFollowTheChainToo() throws {
        try makeChain(1)
        try fixtures.makeLeaf("leaf", subject: "/CN=client.example.com", issuer: "c1", extensions: ["extendedKeyUsage = clientAuth"])
        try fixtures.makePKCS12("leaf.p12", key: "leaf", password: "pw")
        var items: CFArray?
        #expect(SecPKCS12Import(try fixtures.data("leaf.p12") as CFData, [kSecImportExportPassphrase: "pw"] as CFDictionary, &items) == errSecSuccess)
        let identity = try #require((items as? [[String: Any]])?.first?[kSecImportItemIdentity as String] as? SecIdentity)
        try keychain.run { () throws in
            #expect(add(item([kSecValueRef: identity])) == errSecSuccess)
            let query = item([kSecClass: kSecClassIdentity, kSecReturnRef: true, kSecMatchLimit: kSecMatchLimitAll])
            #expect(copyMatching(query.with([kSecMatchIssuers: [try subject("c0")]])).status == errSecItemNotFound)
            #expect(add(item([kSecValueRef: try certificate("c1")])) == errSecSuccess)
            let found = copyMatching(query.with([kSecMatchIssuers: [try subject("c0")]]))
            #expect((found.result as? [SecIdentity])?.count == 1)
        }
    }

    @Test func emailAddressIfPresentKeepsCertificatesWithThatAddressOrNone() throws {
        try fixtures.makeCA("ca", subject: "/CN=Mail CA")
        try fixtures.makeLeaf("alice", subject: "/CN=Alice", issuer: "ca", extensions: ["subjectAltName = email:alice@example.com"])
        try fixtures.makeLeaf("bob", subject: "/CN=Bob", issuer: "ca", extensions: ["subjectAltName = email:bob@example.com"])
        try fixtures.makeLeaf("server", subject: "/CN=server.example.com", issuer: "ca", extensions: ["subjectAltName = DNS:server.example.com"])
        try fixtures.makeLeaf("both", subject: "/CN=Both/emailAddress=carol@example.com", issuer: "ca",
                              extensions: ["subjectAltName = email:alice@example.com"])
        try keychain.run { () throws in
            for name in ["alice", "bob", "server", "both"] { #expect(add(item([kSecValueRef: try certificate(name)])) == errSecSuccess) }
            let alice = copyMatching(Self.all.with([kSecMatchEmailAddressIfPresent: "Alice@Example.com"])).result as? [SecCertificate]
            #expect(Set(alice ?? []) == [try certificate("alice"), try certificate("server"), try certificate("both")])
            let carol = copyMatching(Self.all.with([kSecMatchEmailAddressIfPresent: "carol@example.com"])).result as? [SecCertificate]
            #expect(Set(carol ?? []) == [try certificate("server"), try certificate("both")])
            let nobody = copyMatching(Self.all.with([kSecMatchEmailAddressIfPresent: "nobody@example.com"])).result as? [SecCertificate]
            #expect(nobody == [try certificate("server")])
            #expect(copyMatching(Self.all.with([kSecMatchEmailAddressIfPresent: Data("x".utf8)])).status == errSecParam)
        }
    }
}
