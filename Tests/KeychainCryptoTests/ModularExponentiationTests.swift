import Foundation
import KeychainCrypto
import KeychainTestSupport
import Testing

/// `MontgomeryModulus.power` against Python's `pow(base, exponent, modulus)`, whose big integers
/// share no code with ours. Every case goes to one /usr/bin/python3 process in a single batch.
@Suite struct ModularExponentiationTests {
    /// RFC 2409's prime, from the hex the session tests also check against secretstorage's copy.
    private static let p = OakleyGroup2.prime

    private static func value(_ small: UInt64) -> UInt1024 {
        var value = UInt1024()
        value[0] = small
        return value
    }

    private static func random(using generator: inout SeededRandom) -> UInt1024 {
        var value = UInt1024()
        for limb in 0..<UInt1024.limbCount { value[limb] = generator.next() }
        return value
    }

    /// p − small (small ≤ p).
    private static func pMinus(_ small: UInt64) -> UInt1024 {
        p.subtractingReportingBorrow(value(small)).difference
    }

    // MARK: Python's pow

    /// `pow(b, e, m)` for each line, computed by one Python process. Arguments are Python integer
    /// literals (so `-1` asks for an inverse); answers come back in hex.
    private static func pythonPow(_ cases: [(base: String, exponent: String, modulus: String)]) throws -> [UInt1024] {
        let script = """
            import sys
            for line in sys.stdin:
                b, e, m = (int(word, 0) for word in line.split())
                print(format(pow(b, e, m), "x"))
            """
        let input = FileManager.default.temporaryDirectory
            .appendingPathComponent("modexp-\(UUID().uuidString).txt")
        try Data(cases.map { "\($0.base) \($0.exponent) \($0.modulus)\n" }.joined().utf8).write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script]
        process.standardInput = try FileHandle(forReadingFrom: input)
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let answer = try output.fileHandleForReading.readToEnd() ?? Data()
        let exit = process.waitForExit()
        let problem = String(decoding: (try errors.fileHandleForReading.readToEnd()) ?? Data(), as: UTF8.self)
        try #require(exit.terminationStatus == 0 && exit.terminationReason == .exit, "python3 failed: \(problem)")
        let lines = String(decoding: answer, as: UTF8.self).split(separator: "\n")
        try #require(lines.count == cases.count, "python3 answered \(lines.count) of \(cases.count) lines")
        return try lines.map { try #require(UInt1024(hexadecimal: String($0)), "not hex: \($0)") }
    }

    private static func literal(_ value: UInt1024) -> String {
        "0x" + value.bigEndianBytes.map { String(format: "%02x", $0) }.joined()
    }

    private static func hex(_ value: UInt1024) -> String {
        value.bigEndianBytes.map { String(format: "%02x", $0) }.joined()
    }

    /// Each (modulus, base, exponent) through ours and through Python, compared one by one.
    private static func expectAgreement(_ cases: [(modulus: UInt1024, base: UInt1024, exponent: UInt1024)],
                                        sourceLocation: SourceLocation = #_sourceLocation) throws {
        let expected = try pythonPow(cases.map { (literal($0.base), literal($0.exponent), literal($0.modulus)) })
        var moduli: [String: MontgomeryModulus] = [:]
        var mismatches = 0
        for (index, testCase) in cases.enumerated() {
            let key = hex(testCase.modulus)
            let modulus = moduli[key] ?? MontgomeryModulus(testCase.modulus)
            moduli[key] = modulus
            let ours = modulus.power(testCase.base, testCase.exponent)
            if hex(ours) != hex(expected[index]) {
                mismatches += 1
                if mismatches <= 3 {   // a broken reduction fails most cases; three are enough to read
                    Issue.record("""
                        case \(index): pow(\(literal(testCase.base)), \(literal(testCase.exponent)), \(literal(testCase.modulus)))
                        ours   \(hex(ours))
                        Python \(hex(expected[index]))
                        """, sourceLocation: sourceLocation)
                }
            }
        }
        #expect(mismatches == 0, "\(mismatches) of \(cases.count) differ from Python's pow", sourceLocation: sourceLocation)
    }

    // MARK: Tests

    /// n0′ and R² mod p, computed from p at first use, are the right constants: n0′·p₀ ≡ −1 mod 2^64
    /// and n0′ is minus Python's inverse of p mod 2^64; R² mod p is Python's pow(2, 2048, p).
    @Test func montgomeryConstantsAreRight() throws {
        let modulus = OakleyGroup2.modulus
        #expect(modulus.n0Prime &* Self.p[0] == UInt64.max)
        let python = try Self.pythonPow([
            (Self.literal(Self.p), "-1", "0x1" + String(repeating: "0", count: 16)),
            ("2", "2048", Self.literal(Self.p)),
        ])
        #expect(modulus.n0Prime &+ python[0][0] == 0)
        #expect(Self.hex(modulus.rSquared) == Self.hex(python[1]))

        // The Oakley prime's lowest limb is all ones, which makes n0′ = 1 and would hide a wrong
        // inverse: check the Newton iteration on other odd limbs as well.
        var generator = SeededRandom(seed: 0x6E30_7072_696D_65)
        for _ in 0..<1000 {
            let odd = generator.next() | 1
            #expect(odd &* MontgomeryModulus.negatedInverse(of: odd) == UInt64.max, "\(odd)")
        }
    }

    /// 200 seeded random bases and full-width exponents modulo the Oakley prime. Bases are drawn
    /// over all 1024 bits, so a few exceed p and exercise an unreduced input.
    @Test func randomPowersMatchPython() throws {
        var generator = SeededRandom(seed: 0x0DDB_A11_2409)
        var cases: [(modulus: UInt1024, base: UInt1024, exponent: UInt1024)] = []
        for index in 0..<200 {
            var base = Self.random(using: &generator)
            // Some short bases too (client keys without leading bytes, the generator 2's size).
            if index % 10 == 0 {
                base.withLimbs { limbs in for limb in 1..<limbs.count { limbs[limb] = 0 } }
            }
            cases.append((Self.p, base, Self.random(using: &generator)))
        }
        try Self.expectAgreement(cases)
    }

    /// Other odd moduli, whose lowest limb is not all ones (so n0′ ≠ 1) and some of which are far
    /// below 2^1024 (so the carry and the final subtraction take other paths).
    @Test func otherOddModuliMatchPython() throws {
        var generator = SeededRandom(seed: 0x4D6F_6E74)
        var cases: [(modulus: UInt1024, base: UInt1024, exponent: UInt1024)] = []
        for topLimb in [15, 15, 12, 7, 0] {
            var modulus = Self.random(using: &generator)
            modulus.withLimbs { limbs in
                for limb in (topLimb + 1)..<limbs.count { limbs[limb] = 0 }
                limbs[topLimb] |= 1 << 63
                limbs[0] |= 1
            }
            for _ in 0..<8 {
                cases.append((modulus, Self.random(using: &generator), Self.random(using: &generator)))
            }
        }
        try Self.expectAgreement(cases)
    }

    /// Exponents 0, 1, 2, p−2, p−1 and all ones, against bases 0, 1, 2, p−1, p and all ones.
    @Test func edgeCasesMatchPython() throws {
        var allOnes = UInt1024()
        allOnes.withLimbs { limbs in for limb in limbs.indices { limbs[limb] = .max } }
        let exponents = [Self.value(0), Self.value(1), Self.value(2), Self.pMinus(2), Self.pMinus(1), allOnes]
        let bases = [Self.value(0), Self.value(1), Self.value(2), Self.pMinus(1), Self.p, allOnes]
        var cases: [(modulus: UInt1024, base: UInt1024, exponent: UInt1024)] = []
        for base in bases {
            for exponent in exponents { cases.append((Self.p, base, exponent)) }
        }
        try Self.expectAgreement(cases)

        // And a few we know without Python.
        let modulus = OakleyGroup2.modulus
        let one = Self.hex(Self.value(1))
        #expect(Self.hex(modulus.power(Self.value(0), Self.value(0))) == one)              // 0^0 = 1, as pow()
        #expect(Self.hex(modulus.power(Self.pMinus(1), Self.value(2))) == one)           // (−1)² = 1
        #expect(Self.hex(modulus.power(Self.value(2), Self.pMinus(1))) == one)           // Fermat
        #expect(Self.hex(modulus.power(Self.pMinus(1), Self.value(1))) == Self.hex(Self.pMinus(1)))
        #expect(Self.hex(modulus.power(Self.p, Self.value(1))) == Self.hex(Self.value(0)))  // p ≡ 0
        // 2^(p−2) is the inverse of 2, (p + 1) / 2: so p − half = half − 1.
        let half = modulus.power(Self.value(2), Self.pMinus(2))
        #expect(Self.hex(Self.p.subtractingReportingBorrow(half).difference)
            == Self.hex(half.subtractingReportingBorrow(Self.value(1)).difference))
    }

    /// Bytes and hex in, bytes out; comparison at its edges; the group's usable range.
    @Test func fixedWidthIntegerBasics() throws {
        var generator = SeededRandom(seed: 128)
        for length in [0, 1, 7, 8, 9, 64, 127, 128] {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            let value = UInt1024(bigEndianBytes: bytes)
            #expect(value.bigEndianBytes == [UInt8](repeating: 0, count: 128 - length) + bytes)
            let hexadecimal = bytes.map { String(format: "%02X", $0) }.joined()
            if length > 0 { #expect(Self.hex(try #require(UInt1024(hexadecimal: hexadecimal))) == Self.hex(value)) }
        }
        #expect(UInt1024(hexadecimal: "") == nil)
        #expect(UInt1024(hexadecimal: "0x12") == nil)
        #expect(UInt1024(hexadecimal: String(repeating: "f", count: 257)) == nil)
        #expect(Self.hex(try #require(UInt1024(hexadecimal: "1"))) == Self.hex(Self.value(1)))

        #expect(Self.value(1) < Self.value(2))
        #expect(!(Self.value(2) < Self.value(2)))
        #expect(!(Self.value(3) < Self.value(2)))
        #expect(Self.pMinus(1) < Self.p)
        #expect(!(Self.p < Self.pMinus(1)))
        var high = UInt1024(); high[15] = 1
        #expect(Self.value(.max) < high)        // a higher limb outweighs any lower one
        #expect(!(high < Self.value(.max)))

        #expect(!OakleyGroup2.isUsable(Self.value(0)))
        #expect(!OakleyGroup2.isUsable(Self.value(1)))
        #expect(OakleyGroup2.isUsable(Self.value(2)))
        #expect(OakleyGroup2.isUsable(Self.pMinus(2)))
        #expect(!OakleyGroup2.isUsable(Self.pMinus(1)))
        #expect(!OakleyGroup2.isUsable(Self.p))
    }
}
