import Foundation
@testable import KeychainSSHAgent
import Testing

/// OpenSSH's private key files: what Debian's `ssh-keygen` writes (every cipher it offers, with
/// and without a passphrase) read by ``OpenSSHKeyFile``, and what ``OpenSSHKeyFile`` writes
/// read by `ssh-keygen -y`. The public key each side derives must be the other's.
@Suite struct OpenSSHKeyFileTests {
    static let passphrase = "correct horse battery staple"
    static let ciphers = ["aes256-ctr", "aes128-ctr", "aes192-ctr", "aes128-gcm@openssh.com", "aes256-gcm@openssh.com"]

    @Test func blowfishStartsFromTheDigitsOfPi() {
        let words = PiHexDigits.words(18 + 4 * 256)
        // pi = 3.243F6A88 85A308D3 …: Blowfish's P1, P2; the last subkey; the first and last S-box words.
        #expect(Array(Blowfish.initialSubkeys.prefix(2)) == [0x243F_6A88, 0x85A3_08D3])
        #expect(words[17] == 0x8979_FB1B)
        #expect(words[18] == 0xD131_0BA6)
        #expect(words[18 + 1023] == 0x3AC3_72E6)
    }

    @Test(arguments: ciphers)
    func readsWhatSSHKeygenEncryptedWithEachCipher(cipher: String) throws {
        let sandbox = try AgentSandbox()
        let file = try KeyFiles.make(.ecdsa256, in: sandbox, passphrase: Self.passphrase, cipher: cipher)
        let parsed = try KeyFiles.parse(file)
        #expect(parsed.isEncrypted)
        let (key, comment) = try parsed.decrypt(passphrase: Array(Self.passphrase.utf8))
        #expect(comment == SSHKeyKind.ecdsa256.comment)
        #expect(try KeyFiles.publicLine(key) == KeyFiles.sshKeygenPublicKey(file, passphrase: Self.passphrase, in: sandbox))
        #expect(key.secKey() != nil)
        #expect(throws: OpenSSHKeyFileError.wrongPassphrase) { try parsed.decrypt(passphrase: Array("not it".utf8)) }
        #expect(throws: OpenSSHKeyFileError.passphraseRequired) { try parsed.decrypt(passphrase: []) }
    }

    @Test(arguments: SSHKeyKind.all)
    func readsEveryKeyTypeEncryptedAndNot(kind: SSHKeyKind) throws {
        let sandbox = try AgentSandbox()
        for passphrase in [Self.passphrase, ""] {
            let file = try KeyFiles.make(kind, in: sandbox, passphrase: passphrase, cipher: nil)
            let parsed = try KeyFiles.parse(file)
            #expect(parsed.isEncrypted == !passphrase.isEmpty)
            let (key, comment) = try parsed.decrypt(passphrase: Array(passphrase.utf8))
            #expect(comment == kind.comment)
            #expect(try KeyFiles.publicLine(key) == KeyFiles.sshKeygenPublicKey(file, passphrase: passphrase, in: sandbox))
            #expect(key.secKey() != nil, "\(kind)")
        }
    }

    @Test(arguments: [true, false])
    func sshKeygenReadsWhatWeWrite(encrypted: Bool) throws {
        let sandbox = try AgentSandbox()
        for kind in SSHKeyKind.all {
            let original = try KeyFiles.make(kind, in: sandbox, passphrase: "", cipher: nil)
            let (key, _) = try KeyFiles.parse(original).decrypt(passphrase: [])
            let written = sandbox.home.appendingPathComponent("written-\(kind.name)")
            let passphrase = encrypted ? Self.passphrase : ""
            let text = try OpenSSHKeyFile.armoured(key, comment: "written by us", passphrase: Array(passphrase.utf8))
            try KeyFiles.writePrivate(text, to: written)
            #expect(try KeyFiles.sshKeygenPublicKey(written, passphrase: passphrase, in: sandbox) == KeyFiles.publicLine(key))
            if encrypted {
                let refused = try sandbox.run("/usr/bin/ssh-keygen", ["-y", "-f", written.path, "-P", "wrong"])
                #expect(refused.status != 0, "\(refused)")
                #expect(text.contains(OpenSSHKeyFile.beginLine))
            }
            // And back through our reader, comment and all.
            let reread = try KeyFiles.parse(written).decrypt(passphrase: Array(passphrase.utf8))
            #expect(reread.key == key && reread.comment == "written by us")
        }
    }

    @Test func refusesCiphersAndKeyTypesItDoesNotKnowByName() throws {
        let sandbox = try AgentSandbox()
        let chacha = try KeyFiles.make(.ecdsa256, in: sandbox, passphrase: Self.passphrase, cipher: "chacha20-poly1305@openssh.com")
        #expect(throws: OpenSSHKeyFileError.unsupportedCipher("chacha20-poly1305@openssh.com")) { try KeyFiles.parse(chacha) }
        #expect(OpenSSHKeyFileError.unsupportedCipher("chacha20-poly1305@openssh.com").description.contains("chacha20-poly1305@openssh.com"))
        // DSA: OpenSSH 9.2 still makes such keys; SecKey has none.
        let dsa = sandbox.home.appendingPathComponent("id_dsa")
        let made = try sandbox.run("/usr/bin/ssh-keygen", ["-q", "-t", "dsa", "-N", "", "-f", dsa.path])
        try #require(made.status == 0, "\(made)")
        #expect(throws: OpenSSHKeyFileError.unsupportedKeyType("ssh-dss")) { try KeyFiles.parse(dsa).decrypt(passphrase: []) }
    }

    /// Every prefix of a file (cut inside its binary contents, then armoured again) is refused
    /// with an error, for an unencrypted and an encrypted file; nothing traps.
    @Test func truncatedFilesFailCleanly() throws {
        let sandbox = try AgentSandbox()
        for passphrase in ["", Self.passphrase] {
            let file = try KeyFiles.make(.ecdsa256, in: sandbox, passphrase: passphrase, cipher: passphrase.isEmpty ? nil : "aes256-gcm@openssh.com")
            let binary = try KeyFiles.binary(of: file)
            // Every cut fails on the outer structure (the private section's length or the tag
            // runs past the end), so no key derivation runs.
            for length in 0..<binary.count {
                do {
                    _ = try OpenSSHKeyFile(contents: KeyFiles.armour(Array(binary.prefix(length)))).decrypt(passphrase: Array(passphrase.utf8))
                    Issue.record("a file cut to \(length) of \(binary.count) bytes was read")
                } catch {
                    #expect(!"\(error)".contains(Self.passphrase))
                }
            }
        }
        #expect(throws: OpenSSHKeyFileError.notAnOpenSSHKeyFile) { try OpenSSHKeyFile(contents: Data("ssh-rsa AAAA me\n".utf8)) }
        #expect(throws: OpenSSHKeyFileError.damaged("its body is not base64")) {
            try OpenSSHKeyFile(contents: Data("\(OpenSSHKeyFile.beginLine)\n!!!!\n\(OpenSSHKeyFile.endLine)\n".utf8))
        }
    }

    /// Files built field by field: each structural fault gets its own error, and a hostile
    /// rounds count is refused before any key derivation runs.
    @Test func damagedFieldsAreNamed() throws {
        let sandbox = try AgentSandbox()
        let (key, _) = try KeyFiles.parse(try KeyFiles.make(.ecdsa256, in: sandbox, passphrase: "", cipher: nil)).decrypt(passphrase: [])
        func section(check: (UInt32, UInt32) = (7, 7), padding: [UInt8]? = nil) -> [UInt8] {
            var writer = SSHWireWriter()
            writer.writeUInt32(check.0)
            writer.writeUInt32(check.1)
            key.write(to: &writer)
            writer.writeString("comment")
            var pad: UInt8 = 1
            if let padding { for byte in padding { writer.writeByte(byte) } } else {
                while writer.bytes.count % 8 != 0 { writer.writeByte(pad); pad += 1 }
            }
            return writer.bytes
        }
        func file(cipher: String = "none", kdf: String = "none", options: [UInt8] = [], count: UInt32 = 1,
                  blobs: [[UInt8]]? = nil, body: [UInt8]) -> Data {
            var writer = SSHWireWriter()
            for byte in OpenSSHKeyFile.magic { writer.writeByte(byte) }
            writer.writeString(cipher)
            writer.writeString(kdf)
            writer.writeString(options)
            writer.writeUInt32(count)
            for blob in blobs ?? [key.publicKeyBlob] { writer.writeString(blob) }
            writer.writeString(body)
            return KeyFiles.armour(writer.bytes)
        }
        // The well-formed file reads: the faults below are the only difference.
        #expect(try OpenSSHKeyFile(contents: file(body: section())).decrypt(passphrase: []).key == key)
        #expect(throws: OpenSSHKeyFileError.damaged("its check words differ")) {
            try OpenSSHKeyFile(contents: file(body: section(check: (7, 8)))).decrypt(passphrase: [])
        }
        // The right amount of padding with the wrong bytes (a whole block when none is due: too much).
        let padLength = (8 - section(padding: []).count % 8) % 8
        let badPadding = section(padding: [UInt8](repeating: 9, count: padLength == 0 ? 8 : padLength))
        #expect(throws: OpenSSHKeyFileError.damaged("the private section's padding is wrong")) {
            try OpenSSHKeyFile(contents: file(body: badPadding)).decrypt(passphrase: [])
        }
        #expect(throws: OpenSSHKeyFileError.keyCount(2)) {
            try OpenSSHKeyFile(contents: file(count: 2, blobs: [key.publicKeyBlob, key.publicKeyBlob], body: section()))
        }
        let otherKey = try KeyFiles.parse(try KeyFiles.make(.ecdsa256, in: sandbox, passphrase: "", cipher: nil)).decrypt(passphrase: []).key
        #expect(throws: OpenSSHKeyFileError.damaged("the private key is not the header's public key")) {
            try OpenSSHKeyFile(contents: file(blobs: [otherKey.publicKeyBlob], body: section())).decrypt(passphrase: [])
        }
        #expect(throws: OpenSSHKeyFileError.unsupportedKDF("scrypt")) {
            try OpenSSHKeyFile(contents: file(cipher: "aes256-ctr", kdf: "scrypt", body: [UInt8](repeating: 0, count: 16)))
        }
        #expect(throws: OpenSSHKeyFileError.unsupportedCipher("3des-cbc")) {
            try OpenSSHKeyFile(contents: file(cipher: "3des-cbc", kdf: "bcrypt", body: [UInt8](repeating: 0, count: 16)))
        }
        var hostile = SSHWireWriter()
        hostile.writeString([UInt8](repeating: 1, count: 16))
        hostile.writeUInt32(UInt32.max)
        let started = Date()
        #expect(throws: OpenSSHKeyFileError.tooManyRounds(UInt32.max)) {
            try OpenSSHKeyFile(contents: file(cipher: "aes256-ctr", kdf: "bcrypt", options: hostile.bytes,
                                              body: [UInt8](repeating: 0, count: 16))).decrypt(passphrase: Array("x".utf8))
        }
        #expect(Date().timeIntervalSince(started) < 1)
        #expect(throws: OpenSSHKeyFileError.damaged("the private section is not a whole number of cipher blocks")) {
            try OpenSSHKeyFile(contents: file(body: Array(section().dropLast())))
        }
    }
}

/// Key files made and read for the tests.
enum KeyFiles {
    /// A key made by `ssh-keygen` with this passphrase ("" for none) and cipher (nil: its default).
    static func make(_ kind: SSHKeyKind, in sandbox: AgentSandbox, passphrase: String, cipher: String?) throws -> URL {
        let file = sandbox.home.appendingPathComponent("id_\(kind.name)_\(UUID().uuidString.prefix(8))")
        var arguments = ["-q", "-t", kind.type, "-b", String(kind.bits), "-N", passphrase, "-C", kind.comment, "-f", file.path]
        if let cipher { arguments += ["-Z", cipher] }
        let made = try sandbox.run("/usr/bin/ssh-keygen", arguments)
        try #require(made.status == 0, "\(made)")
        return file
    }

    static func parse(_ file: URL) throws -> OpenSSHKeyFile {
        try OpenSSHKeyFile(contents: Data(contentsOf: file))
    }

    /// `ssh-keygen -y`'s public key of a private key file: its type and base64 blob.
    static func sshKeygenPublicKey(_ file: URL, passphrase: String, in sandbox: AgentSandbox) throws -> String {
        let derived = try sandbox.run("/usr/bin/ssh-keygen", ["-y", "-f", file.path, "-P", passphrase])
        try #require(derived.status == 0, "\(derived)")
        return derived.stdout.split(separator: " ").prefix(2).joined(separator: " ").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Our public key of a key read: type and base64 blob.
    static func publicLine(_ key: SSHPrivateKey) -> String {
        SSHPublicKeyText.authorizedKeysLine(blob: key.publicKeyBlob, comment: "")
    }

    /// ssh-keygen refuses key files others can read: written 0600.
    static func writePrivate(_ text: String, to file: URL) throws {
        try? FileManager.default.removeItem(at: file)
        #expect(FileManager.default.createFile(atPath: file.path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]))
    }

    /// The decoded body of a key file.
    static func binary(of file: URL) throws -> [UInt8] {
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("-----") }
        return Array(try #require(Data(base64Encoded: lines.joined())))
    }

    /// Binary contents as a key file.
    static func armour(_ bytes: [UInt8]) -> Data {
        Data("\(OpenSSHKeyFile.beginLine)\n\(Data(bytes).base64EncodedString(options: .lineLength64Characters))\n\(OpenSSHKeyFile.endLine)\n".utf8)
    }
}
