import Foundation
@testable import KeychainSecretService
import Testing

/// The GNOME keyring readers on files the real programs wrote (``GnomeKeyringFixtures``), and on
/// every truncation and on bit flips of them: a damaged file is a clean error, never a trap and
/// never different items.
@Suite struct GnomeKeyringFileTests {
    static let network = ["user": "bob", "server": "git.example.com", "protocol": "https", "port": "8443", "object": "repo.git",
                          "xdg:schema": "org.gnome.keyring.NetworkPassword"]

    static func byLabel(_ items: [GnomeKeyringItem]) -> [String: GnomeKeyringItem] {
        Dictionary(items.map { ($0.label, $0) }, uniquingKeysWith: { first, _ in first })
    }

    @Test func legacyFileOfGnomeKeyring() throws {
        let file = try GnomeKeyringFile(GnomeKeyringFixtures.legacy)
        #expect(file.format == .legacy)
        #expect(file.itemCount == 3)
        let items = Self.byLabel(try file.items(password: Array(GnomeKeyringFixtures.legacyPassword.utf8)))
        #expect(items.count == 3)
        // gnome-keyring shows the schema of the item's type when the attributes have none.
        #expect(items["Mail ✉ login"]?.attributes == ["service": "imap.example.com", "username": "ann",
                                                       "xdg:schema": "org.freedesktop.Secret.Generic"])
        #expect(items["Mail ✉ login"]?.secret == Data("hunter2".utf8))
        #expect(items["Mail ✉ login"]?.created == Date(timeIntervalSince1970: 1_795_609_263))
        #expect(items["Mail ✉ login"]?.modified == Date(timeIntervalSince1970: 1_795_609_263))
        #expect(items["Git: https://git.example.com"]?.attributes == Self.network)
        #expect(items["Git: https://git.example.com"]?.secret == Data("tok".utf8))
        #expect(items["Other"]?.attributes == ["app": "foo", "color": "blue", "xdg:schema": "org.freedesktop.Secret.Generic"])
        #expect(items["Other"]?.secret == Data([0x62, 0x69, 0x6E, 0x01, 0xFF, 0x78]))
        #expect(items.values.allSatisfy { $0.contentType == "text/plain" })
    }

    @Test func v1FileOfLibsecret() throws {
        let file = try GnomeKeyringFile(GnomeKeyringFixtures.v1)
        #expect(file.format == .v1)
        #expect(file.itemCount == 3)
        let items = Self.byLabel(try file.items(password: Array(GnomeKeyringFixtures.v1Password.utf8)))
        #expect(items.count == 3)
        #expect(items["Mail ✉ login"]?.attributes == ["service": "imap.example.com", "username": "ann"])
        #expect(items["Mail ✉ login"]?.secret == Data("hunter2".utf8))
        #expect(items["Mail ✉ login"]?.created == Date(timeIntervalSince1970: 1_795_609_488))
        #expect(items["Git: https://git.example.com"]?.attributes == Self.network)
        #expect(items["Git: https://git.example.com"]?.secret == Data("tok".utf8))
        #expect(items["Other"]?.attributes == ["app": "foo", "color": "blue"])
        #expect(items["Other"]?.secret == Data([0x62, 0x69, 0x6E, 0x01, 0xFF, 0x78]))
    }

    @Test(arguments: [(GnomeKeyringFixtures.legacy, "pw-legac"), (GnomeKeyringFixtures.v1, "pw-v1 "), (GnomeKeyringFixtures.v1, "")])
    func wrongPasswordSaysSo(file: Data, password: String) throws {
        #expect(throws: GnomeKeyringFileError.wrongPassword) { try GnomeKeyringFile(file).items(password: Array(password.utf8)) }
        #expect(GnomeKeyringFileError.wrongPassword.description == "the password does not open this keyring")
    }

    @Test func notAKeyringAndUnknownVersions() {
        #expect(throws: GnomeKeyringFileError.notAKeyring) { try GnomeKeyringFile(Data()) }
        #expect(throws: GnomeKeyringFileError.notAKeyring) { try GnomeKeyringFile(Data("SWKCBAK1 not a keyring".utf8)) }
        var future = GnomeKeyringFixtures.v1
        future[16] = 2
        #expect(throws: GnomeKeyringFileError.unsupportedVersion(major: 2, minor: 0)) { try GnomeKeyringFile(future) }
    }

    /// What opening `data` with `password` gives: the items, or the error.
    static func open(_ data: Data, _ password: String) -> Result<[GnomeKeyringItem], GnomeKeyringFileError> {
        Result { () throws(GnomeKeyringFileError) in try GnomeKeyringFile(data).items(password: Array(password.utf8)) }
    }

    @Test(arguments: [(GnomeKeyringFixtures.legacy, GnomeKeyringFixtures.legacyPassword),
                      (GnomeKeyringFixtures.v1, GnomeKeyringFixtures.v1Password)])
    func everyTruncationIsAnError(file: Data, password: String) {
        for length in 0..<file.count {
            let outcome = Self.open(file.prefix(length), password)
            if case .success = outcome { Issue.record("the file cut to \(length) of \(file.count) bytes opened") }
        }
    }

    /// Flipping one bit anywhere either fails cleanly or changes nothing the import uses. The
    /// exception is gnome-keyring's own: the legacy format's clear part is not authenticated, so
    /// a flipped item type changes the schema shown for an item that names none, as it would in
    /// gnome-keyring.
    @Test(arguments: [(GnomeKeyringFixtures.legacy, GnomeKeyringFixtures.legacyPassword, 1),
                      (GnomeKeyringFixtures.v1, GnomeKeyringFixtures.v1Password, 7)])
    func bitFlipsAreErrorsOrHarmless(file: Data, password: String, stride: Int) throws {
        let original = Self.byLabel(try GnomeKeyringFile(file).items(password: Array(password.utf8)))
        // v1 files take a PBKDF2 of 100,000 rounds per try: every seventh byte there.
        for index in Swift.stride(from: 0, to: file.count, by: stride) {
            var damaged = file
            damaged[index] ^= 1 << UInt8(index % 8)
            guard case .success(let items) = Self.open(damaged, password) else { continue }
            let flipped = Self.byLabel(items)
            #expect(flipped.count == original.count, "byte \(index)")
            for (label, item) in original {
                #expect(flipped[label]?.secret == item.secret, "byte \(index)")
                var expected = item.attributes, got = flipped[label]?.attributes ?? [:]
                expected["xdg:schema"] = nil
                got["xdg:schema"] = nil
                #expect(got == expected, "byte \(index)")
            }
        }
    }

    // MARK: Hostile headers

    /// A legacy file made by hand: header, algorithms, then the fields given.
    static func legacyFile(iterations: UInt32 = 1000, count: UInt32, tail: [UInt8] = []) -> Data {
        var bytes = Array("GnomeKeyring\n\r\0\n".utf8) + [0, 0, 0, 0]
        func u32(_ value: UInt32) { bytes += withUnsafeBytes(of: value.bigEndian) { Array($0) } }
        u32(0xFFFF_FFFF)  // no label
        for _ in 0..<6 { u32(0) }  // times, flags, timeout
        u32(iterations)
        bytes += [UInt8](repeating: 7, count: 8)
        for _ in 0..<4 { u32(0) }
        u32(count)
        return Data(bytes + tail)
    }

    @Test func absurdLegacyCountsAndSizes() {
        // Four billion items in a file of a few bytes: the reader runs out of bytes at once.
        #expect(throws: GnomeKeyringFileError.self) { try GnomeKeyringFile(Self.legacyFile(count: .max)) }
        // An item with four billion attributes.
        #expect(throws: GnomeKeyringFileError.self) {
            try GnomeKeyringFile(Self.legacyFile(count: 1, tail: [0, 0, 0, 1, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xF0]))
        }
        // A string as long as the address space, and one just under gnome-keyring's limit.
        for length: [UInt8] in [[0x7F, 0xFF, 0xFF, 0xFF], [0x7F, 0xFF, 0xFF, 0xFE]] {
            #expect(throws: GnomeKeyringFileError.self) {
                try GnomeKeyringFile(Self.legacyFile(count: 1, tail: [0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1] + length))
            }
        }
        // Iteration counts of zero and of four billion.
        #expect(throws: GnomeKeyringFileError.damaged("the hash iteration count 0 is out of range")) {
            try GnomeKeyringFile(Self.legacyFile(iterations: 0, count: 0, tail: [0, 0, 0, 16] + [UInt8](repeating: 0, count: 16)))
        }
        #expect(throws: GnomeKeyringFileError.self) {
            try GnomeKeyringFile(Self.legacyFile(iterations: .max, count: 0, tail: [0, 0, 0, 16] + [UInt8](repeating: 0, count: 16)))
        }
        // An encrypted block that is not whole AES blocks, or longer than the file.
        #expect(throws: GnomeKeyringFileError.self) {
            try GnomeKeyringFile(Self.legacyFile(count: 0, tail: [0, 0, 0, 17] + [UInt8](repeating: 0, count: 17)))
        }
        #expect(throws: GnomeKeyringFileError.self) {
            try GnomeKeyringFile(Self.legacyFile(count: 0, tail: [0xFF, 0xFF, 0xFF, 0xF0]))
        }
    }

    @Test func absurdV1Fields() throws {
        // The real file with its salt size, then its iteration count, changed.
        var salt = GnomeKeyringFixtures.v1
        salt[18] = 31
        #expect(throws: GnomeKeyringFileError.damaged("the salt has 32 bytes, not the 31 it says")) { try GnomeKeyringFile(salt) }
        for count: UInt32 in [0, .max] {
            var iterations = GnomeKeyringFixtures.v1
            // salt size (4) and salt (32) after the 18 header bytes, then the iteration count.
            iterations.replaceSubrange(54..<58, with: withUnsafeBytes(of: count.littleEndian) { Array($0) })
            #expect(throws: GnomeKeyringFileError.damaged("the iteration count \(count) is out of range")) { try GnomeKeyringFile(iterations) }
        }
    }
}

/// The GVariant reader on the examples of GVariant's specification and on values GLib wrote.
@Suite struct GVariantReaderTests {
    typealias Reader = GVariantReader

    @Test func specificationExamples() throws {
        // ("foo", -1) as (si): the string, padding to 4, the int, one framing offset.
        let tuple = try Reader.read(.init("(si)"), from: [0x66, 0x6F, 0x6F, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0x04])
        #expect(tuple == .tuple([.string("foo"), .number(0xFFFF_FFFF)]))
        // ["i", "can", "has", "strings?"] as as.
        let strings: [UInt8] = [0x69, 0x00, 0x63, 0x61, 0x6E, 0x00, 0x68, 0x61, 0x73, 0x00, 0x73, 0x74, 0x72, 0x69, 0x6E,
                                0x67, 0x73, 0x3F, 0x00, 0x02, 0x06, 0x0A, 0x13]
        let expected = ["i", "can", "has", "strings?"].map { Reader.Value.string($0) }
        #expect(try Reader.read(.init("as"), from: strings) == .array(expected))
        #expect(try Reader.read(.init("ay"), from: [1, 2, 3]) == .bytes(Data([1, 2, 3])))
        #expect(try Reader.read(.init("a(a{say}ay)"), from: []) == .array([]))
        #expect(try Reader.read(.init("()"), from: [0]) == .tuple([]))
    }

    @Test func malformedDataThrows() throws {
        // No NUL, an interior NUL, not UTF-8.
        for bytes: [UInt8] in [[0x61], [0x61, 0x00, 0x62, 0x00], [0xFF, 0x00], []] {
            #expect(throws: Reader.GVariantError.self) { try Reader.read(.init("s"), from: bytes) }
        }
        // A fixed-size value of the wrong size, an array of u that is not whole elements.
        #expect(throws: Reader.GVariantError.self) { try Reader.read(.init("u"), from: [1, 2, 3]) }
        #expect(throws: Reader.GVariantError.self) { try Reader.read(.init("au"), from: [1, 2, 3, 4, 5]) }
        // Framing offsets pointing past their container, or backwards.
        #expect(throws: Reader.GVariantError.self) { try Reader.read(.init("(si)"), from: [0x66, 0x00, 0, 0, 1, 2, 3, 4, 0x40]) }
        #expect(throws: Reader.GVariantError.self) { try Reader.read(.init("as"), from: [0x61, 0x00, 0x62, 0x00, 0x04, 0x02]) }
        #expect(throws: Reader.GVariantError.self) { try Reader.read(.init("as"), from: [0x61, 0x00, 0xFF]) }
        #expect(throws: Reader.GVariantError.self) { try Reader.VariantType("(mv)") }
        #expect(throws: Reader.GVariantError.self) { try Reader.VariantType("a") }
    }
}
