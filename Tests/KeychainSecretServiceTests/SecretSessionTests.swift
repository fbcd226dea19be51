import Foundation
import Testing
import KeychainCrypto
@testable import KeychainSecretService

/// RFC 2409's 1024-bit prime, written out again here so that a typo in the source's copy fails.
private let prime = Data(hex:
    "ffffffffffffffffc90fdaa22168c234c4c6628b80dc1cd129024e088a67cc74020bbea63b139b22514a0879"
    + "8e3404ddef9519b3cd3a431b302b0a6df25f14374fe1356d6d51c245e485b576625e7ec6f44c42e9a637ed6b"
    + "0bff5cb6f406b7edee386bfb5a899fa5ae9f24117c4b1fe649286651ece65381ffffffffffffffff")

/// `value` plus a small number, as 128 (or, on overflow, 129) big-endian bytes.
private func adding(_ small: UInt8, to value: Data) -> Data {
    var bytes = [UInt8](value)
    var carry = UInt16(small)
    for index in bytes.indices.reversed() where carry != 0 {
        let sum = UInt16(bytes[index]) + carry
        bytes[index] = UInt8(truncatingIfNeeded: sum)
        carry = sum >> 8
    }
    if carry != 0 { bytes.insert(UInt8(carry), at: 0) }
    return Data(bytes)
}

private func subtracting(_ small: UInt8, from value: Data) -> Data {
    var bytes = [UInt8](value)
    var borrow = Int(small)
    for index in bytes.indices.reversed() where borrow != 0 {
        let difference = Int(bytes[index]) - borrow
        bytes[index] = UInt8(truncatingIfNeeded: difference)
        borrow = difference < 0 ? 1 : 0
    }
    return Data(bytes)
}

private let dh = SessionAlgorithm.dhIETF1024SHA256AES128CBCPKCS7

/// A DH session with a tiny private exponent, for tests about what happens after the agreement:
/// a 1024-bit exponentiation costs about 20 ms in a debug build, more under the sanitizers.
private func cheapSession() throws -> SecretSession {
    try SecretSession.negotiateDH(clientInput: Data([2, 0x31, 0x41]), privateExponent: Data([0x01, 0x05])).session
}

@Suite struct SecretSessionTests {
    // MARK: Interoperability with the real client code

    /// Python's secretstorage opens sessions against ours and exchanges secrets both ways: it
    /// encrypts with `util.format_secret` and we decode; we encode and it decrypts as item.py
    /// does. One of the sessions has a shared secret with a zero first byte, so a key derived
    /// without the left-padding would fail here every run, not once in 256.
    @Test func secretstorageExchangesSecretsBothWays() throws {
        let peer = try SecretStoragePeer()
        let secrets = [Data(), Data("s3cret".utf8), Data(repeating: 0x41, count: 15), Data(repeating: 0x10, count: 16),
                       Data(repeating: 0x01, count: 17), Data("pässwörd ✓".utf8), Data((0..<255).map { UInt8($0) })]
        let edgeExponent = Data((0..<128).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })
        for round in 0..<4 {
            let edge = round == 3
            let clientKey = Data(hex: try peer.ask(edge ? "client-for \(edgeExponent.hex)" : "client")[0])
            let (session, ours) = edge
                ? try SecretSession.negotiateDH(clientInput: clientKey, privateExponent: edgeExponent)
                : try SecretSession.negotiate(dh, clientInput: clientKey)
            #expect(ours.count == 128)
            #expect(try peer.ask("server", ours.hex) == ["ok"])
            for secret in secrets {
                let sent = try peer.ask("encrypt", secret.hex)
                let parameters = Data(hex: sent[0]), value = Data(hex: sent[1])
                #expect(parameters.count == 16)
                #expect(try session.decode(parameters: parameters, value: value) == secret, "round \(round)")

                let encoded = try session.encode(secret)
                #expect(encoded.parameters.count == 16)
                #expect(encoded.value.count == (secret.count / 16 + 1) * 16)
                let received = try peer.ask("decrypt", encoded.parameters.hex, encoded.value.hex)
                #expect(received == ["=", secret.hex], "round \(round)")
            }
        }
    }

    // MARK: Known answers

    /// Our public key and ciphertext against values Python computes with `pow()`, `hmac` and
    /// `cryptography` from the same exponents and IV, in the cases where a byte of padding
    /// matters: our public key, the shared secret, or the client's key starting with a zero byte.
    @Test(arguments: ["random", "short-server", "short-shared", "short-client"])
    func knownAnswerFromPythonPow(mode: String) throws {
        let peer = try SecretStoragePeer()
        let vector = try peer.ask("kat", mode)
        try #require(vector.count == 6)
        let exponent = Data(hex: vector[0]), clientKey = Data(hex: vector[1]), serverKey = Data(hex: vector[2])
        let iv = Data(hex: vector[3]), plain = Data(hex: vector[4]), ciphertext = Data(hex: vector[5])
        switch mode {
        case "short-server": #expect(serverKey.first == 0)
        case "short-client": #expect(clientKey.count < 128)
        default: break
        }

        let (session, ours) = try SecretSession.negotiateDH(clientInput: clientKey, privateExponent: exponent)
        #expect(ours == serverKey)
        let encoded = try session.encode(plain, iv: iv)
        #expect(encoded.parameters == iv)
        #expect(encoded.value == ciphertext)
        #expect(try session.decode(parameters: iv, value: ciphertext) == plain)
    }

    /// The prime is RFC 2409's and the generator 2: with the exponent 1 our public key is 2,
    /// written at full width.
    @Test func groupIsTheSecondOakleyGroup() throws {
        #expect(Data(OakleyGroup2.prime.bigEndianBytes) == prime)
        var one = Data(count: 128); one[127] = 1
        let (_, two) = try SecretSession.negotiateDH(clientInput: Data([2]), privateExponent: one)
        #expect(two == Data(count: 127) + Data([2]))
    }

    /// A client key may come without leading zeros (libgcrypt, secretstorage), at full width,
    /// or with one extra zero byte in front (GnuTLS's export): all three are the same key.
    @Test func clientKeyEncodingsAreEquivalent() throws {
        let peer = try SecretStoragePeer()
        let vector = try peer.ask("kat", "short-client")
        let exponent = Data(hex: vector[0]), stripped = Data(hex: vector[1])
        let iv = Data(repeating: 7, count: 16), plain = Data("same key".utf8)
        let forms = [stripped, Data(count: 128 - stripped.count) + stripped, Data(count: 129 - stripped.count) + stripped]
        let encodings = try forms.map { form in
            try SecretSession.negotiateDH(clientInput: form, privateExponent: exponent).session.encode(plain, iv: iv)
        }
        #expect(encodings.allSatisfy { $0 == encodings[0] })
    }

    // MARK: Hostile input

    @Test func unusablePublicKeysAreRefused() {
        var one = Data(count: 128); one[127] = 1
        let primeMinusOne = subtracting(1, from: prime)
        let cases: [(String, Data)] = [
            ("empty", Data()),
            ("0", Data([0])),
            ("0 at full width", Data(count: 128)),
            ("0 at 129 bytes", Data(count: 129)),
            ("1", Data([1])),
            ("1 at full width", one),
            ("p-1", primeMinusOne),
            ("p-1 with a leading zero", Data([0]) + primeMinusOne),
            ("p", prime),
            ("p+1", adding(1, to: prime)),
            ("2^1024-1", Data(repeating: 0xFF, count: 128)),
            ("129 bytes, first not zero", Data([1]) + Data(repeating: 0x55, count: 128)),
            ("130 bytes", Data(count: 2) + Data(repeating: 0x55, count: 128)),
            ("1000 bytes", Data(repeating: 0x55, count: 1000)),
            ("1000 bytes of a small key", Data(count: 999) + Data([5])),
        ]
        for (name, key) in cases {
            #expect(throws: SessionError.invalidPublicKey, "\(name)") {
                try SecretSession.negotiate(dh, clientInput: key)
            }
        }
        // The edges just inside are accepted (one through the public entry point, which checks
        // the key the same way before its costlier exponentiation).
        #expect(throws: Never.self) { try SecretSession.negotiate(dh, clientInput: Data([2])) }
        #expect(throws: Never.self) {
            try SecretSession.negotiateDH(clientInput: subtracting(2, from: prime), privateExponent: Data([7]))
        }
    }

    @Test func malformedSecretsAreInvalid() throws {
        let session = try cheapSession()
        let good = try session.encode(Data(repeating: 0x61, count: 15))     // one block, padding 01
        let longer = try session.encode(Data(repeating: 0x61, count: 31))   // two blocks, padding 01
        #expect(try session.decode(parameters: good.parameters, value: good.value) == Data(repeating: 0x61, count: 15))

        func flipped(_ data: Data, at index: Int, by mask: UInt8) -> Data {
            var copy = data
            copy[copy.startIndex + index] ^= mask
            return copy
        }
        let cases: [(String, Data, Data)] = [
            ("empty IV and value", Data(), Data()),
            ("empty value", good.parameters, Data()),
            ("15-byte IV", good.parameters.prefix(15), good.value),
            ("17-byte IV", good.parameters + Data([0]), good.value),
            ("no IV", Data(), good.value),
            ("value of 15 bytes", good.parameters, good.value.prefix(15)),
            ("value of 17 bytes", good.parameters, good.value + Data([0])),
            ("value of 31 bytes", longer.parameters, longer.value.prefix(31)),
            // Flipping IV bits flips the same bits of a one-block plaintext: padding 01 → 00, 11, 03.
            ("padding 0", flipped(good.parameters, at: 15, by: 0x01), good.value),
            ("padding 17", flipped(good.parameters, at: 15, by: 0x10), good.value),
            ("padding 3 over bytes that are not 3", flipped(good.parameters, at: 15, by: 0x02), good.value),
            // And a ciphertext block's bits flip the next block's plaintext.
            ("padding 0 in the second block", longer.parameters, flipped(longer.value, at: 15, by: 0x01)),
        ]
        for (name, parameters, value) in cases {
            #expect(throws: SessionError.invalidSecret, "\(name)") {
                try session.decode(parameters: parameters, value: value)
            }
        }
    }

    @Test func paddingCheckLooksAtEveryPaddingByte() {
        let body = Data(repeating: 0xAA, count: 16)
        for length in 1...16 {
            let padding = Data(repeating: UInt8(length), count: length)
            let good = body + Data(repeating: 0xAA, count: 16 - length) + padding
            #expect(SecretSession.unpaddedLength(good) == 32 - length)
            for wrong in 0..<length - 1 {   // the last byte sets the length; each other one must match it
                var bad = good
                bad[bad.count - length + wrong] ^= 0x80
                #expect(SecretSession.unpaddedLength(bad) == nil, "length \(length), byte \(wrong)")
            }
        }
        #expect(SecretSession.unpaddedLength(body + Data(count: 16)) == nil)
        #expect(SecretSession.unpaddedLength(body + Data(repeating: 17, count: 16)) == nil)
        #expect(SecretSession.unpaddedLength(Data(repeating: 0xFF, count: 16)) == nil)
        #expect(SecretSession.unpaddedLength(Data()) == nil)
    }

    /// Random garbage never traps: it is refused, or (rarely, with valid-looking padding) read
    /// as some other bytes.
    @Test func randomInputNeverTraps() throws {
        var generator = SystemRandomNumberGenerator()
        let session = try cheapSession()
        for _ in 0..<2000 {
            let parameters = Data((0..<[0, 15, 16, 16, 16, 17].randomElement(using: &generator)!).map { _ in UInt8.random(in: 0...255, using: &generator) })
            let value = Data((0..<Int.random(in: 0...80, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) })
            do {
                _ = try session.decode(parameters: parameters, value: value)
            } catch {
                #expect(error == .invalidSecret)
            }
        }
        for _ in 0..<200 {
            let length = [0, 129, 130, 200, 1000].randomElement(using: &generator)!
            let key = Data((0..<length).map { _ in UInt8.random(in: 1...255, using: &generator) })
            #expect(throws: SessionError.invalidPublicKey) { try SecretSession.negotiate(dh, clientInput: key) }
        }
    }

    // MARK: Plain, names, descriptions

    @Test func plainPassesSecretsThroughAndRefusesParameters() throws {
        let (session, output) = try SecretSession.negotiate(.plain, clientInput: Data())
        #expect(output.isEmpty)
        for secret in [Data(), Data("s3cret".utf8), Data(repeating: 0, count: 33)] {
            let encoded = try session.encode(secret)
            #expect(encoded.parameters.isEmpty)
            #expect(encoded.value == secret)
            #expect(try session.decode(parameters: encoded.parameters, value: encoded.value) == secret)
        }
        #expect(throws: SessionError.invalidSecret) {
            try session.decode(parameters: Data([0]), value: Data("s3cret".utf8))
        }
        #expect(throws: SessionError.invalidSecret) {
            try session.decode(parameters: Data(count: 16), value: Data(count: 16))
        }
    }

    @Test func algorithmsAreNamedExactly() throws {
        #expect(SessionAlgorithm(name: "plain") == .plain)
        #expect(SessionAlgorithm(name: "dh-ietf1024-sha256-aes128-cbc-pkcs7") == dh)
        for name in ["", "PLAIN", "dh-ietf1024-sha256-aes128-cbc-pkcs7 ", "dh-ietf2048-sha256-aes128-cbc-pkcs7"] {
            #expect(SessionAlgorithm(name: name) == nil)
            #expect(throws: SessionError.unsupportedAlgorithm) {
                try SecretSession.negotiate(algorithmName: name, clientInput: Data())
            }
        }
        #expect(try SecretSession.negotiate(algorithmName: "plain", clientInput: Data()).session.algorithm == .plain)
    }

    /// The description, debug description and `dump` name the algorithm and nothing else.
    @Test func descriptionsShowNoKey() throws {
        let session = try cheapSession()
        #expect(session.description == "SecretSession(dh-ietf1024-sha256-aes128-cbc-pkcs7)")
        #expect(String(reflecting: session) == session.description)
        var dumped = ""
        dump(session, to: &dumped)
        #expect(!dumped.contains("key") && !dumped.contains("Key"), "\(dumped)")
        #expect(Mirror(reflecting: session).children.map(\.label) == ["algorithm"])
    }
}
