import Foundation
import KeychainCrypto
import KeychainTestSupport
import Testing

/// The primitives under the RSA keys swift-crypto cannot make or hold: the arithmetic of
/// `NaturalNumber` and `OddModulus` against Python's integers, Miller–Rabin against known
/// primes and known composites that fool weaker tests, and `RSAPrivateNumbers` (generation,
/// consistency checks, the CRT private operation against the plain c^d mod n).
@Suite struct RSAKeyGenerationTests {
    private static func number(_ hex: String) -> NaturalNumber {
        var digits = hex.count % 2 == 1 ? "0" + hex : hex
        if digits.isEmpty { digits = "00" }
        var bytes: [UInt8] = []
        var index = digits.startIndex
        while index < digits.endIndex {
            let next = digits.index(index, offsetBy: 2)
            bytes.append(UInt8(digits[index..<next], radix: 16)!)
            index = next
        }
        return NaturalNumber(bigEndian: Data(bytes))
    }

    private static func hex(_ value: NaturalNumber) -> String {
        let text = value.minimalBigEndian.map { String(format: "%02x", $0) }.joined()
        let trimmed = text.drop { $0 == "0" }
        return trimmed.isEmpty ? "0" : String(trimmed)
    }

    private static func random(bits: Int, using generator: inout SeededRandom) -> NaturalNumber {
        NaturalNumber(limbs: (0..<((bits + 63) / 64)).map { _ in generator.next() }).shiftedRight(by: (64 - bits % 64) % 64)
    }

    /// Python's answers, one line per expression (each evaluated with a, b, m bound), in hex.
    private static func python(_ lines: [String]) throws -> [String] {
        let script = """
            import sys
            for line in sys.stdin:
                a, b, m, expression = line.split(" ", 3)
                a, b, m = int(a, 16), int(b, 16), int(m, 16)
                print(format(eval(expression), "x"))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(lines.map { $0 + "\n" }.joined().utf8))
        try input.fileHandleForWriting.close()
        let answer = try output.fileHandleForReading.readToEnd() ?? Data()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "python3 failed")
        return String(decoding: answer, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test("Sums, differences, products, division and Montgomery exponentiation agree with Python's integers")
    func arithmeticAgainstPython() throws {
        var generator = SeededRandom(seed: 0x5eed_0001)
        var lines: [String] = [], ours: [String] = []
        for bits in [64, 130, 512, 1000, 2049] {
            for _ in 0..<3 {
                // a has its top bit set, so that it is above b and a − b is natural.
                let a = Self.random(bits: bits, using: &generator) + NaturalNumber(1).shiftedLeft(by: bits)
                let b = Self.random(bits: bits / 2 + 1, using: &generator)
                var m = Self.random(bits: bits, using: &generator)
                if !m.isOdd { m = m + NaturalNumber(1) }
                let prefix = "\(Self.hex(a)) \(Self.hex(b)) \(Self.hex(m))"
                let (q, r) = a.quotientAndRemainder(dividingBy: b)
                let base = a.modulo(m)
                let modulus = OddModulus(m)
                let results: [(String, NaturalNumber)] = [
                    ("a + b", a + b), ("a * b", a * b), ("a - b", a - b), ("a // b", q), ("a % b", r),
                    ("a << 77", a.shiftedLeft(by: 77)), ("a >> 70", a.shiftedRight(by: 70)),
                    ("a % 4294967311", NaturalNumber(a.remainder(dividingBy: 4_294_967_311))),
                    ("__import__('math').gcd(a, b)", NaturalNumber.gcd(a, b)),
                    ("pow(a % m, b, m)", modulus.power(base, b)),
                    ("(a % m) * (b % m) % m", modulus.multiply(base, b.modulo(m))),
                ]
                for (expression, value) in results {
                    lines.append("\(prefix) \(expression)")
                    ours.append(Self.hex(value))
                }
            }
        }
        let expected = try Self.python(lines)
        try #require(expected.count == ours.count)
        for index in ours.indices { #expect(ours[index] == expected[index], "\(lines[index].split(separator: " ", maxSplits: 3).last!)") }
    }

    @Test("Miller–Rabin says prime for known primes")
    func knownPrimes() {
        var generator = SystemRandomNumberGenerator()
        let primes = [
            NaturalNumber(1).shiftedLeft(by: 127) - NaturalNumber(1),  // Mersenne M127
            NaturalNumber(1).shiftedLeft(by: 521) - NaturalNumber(1),  // Mersenne M521
            Self.number("ffffffff00000001000000000000000000000000ffffffffffffffffffffffff"), // P-256's p
            NaturalNumber(bigEndian: Data(OakleyGroup2.prime.bigEndianBytes)),                  // RFC 2409's 1024-bit prime
            NaturalNumber(1_000_000_007), NaturalNumber(65537),
        ]
        for prime in primes {
            #expect(ProbablePrimes.millerRabin(prime, rounds: 20, using: &generator))
            #expect(!ProbablePrimes.hasSmallFactor(prime))
        }
    }

    @Test("Miller–Rabin says composite for Carmichael numbers and strong pseudoprimes")
    func knownComposites() {
        var generator = SystemRandomNumberGenerator()
        let composites = [
            // Carmichael numbers: a Fermat test passes them for every base coprime to them.
            NaturalNumber(561), NaturalNumber(1105), NaturalNumber(1729), NaturalNumber(2465), NaturalNumber(8911),
            // 41041 = 7·11·13·41 and 825265 = 5·7·17·19·73: Carmichael numbers of four and five factors.
            NaturalNumber(41041), NaturalNumber(825_265),
            // A Chernick Carmichael number (6k+1)(12k+1)(18k+1) with three 66-to-68-bit prime factors,
            // beyond trial division (k = 11096173533887665015).
            Self.number("11a135bf4bd002e6a08a3f38e422fe527d0bc0128794df58379"),
            // Strong pseudoprimes: 2047 to base 2; 3215031751 to bases 2, 3, 5 and 7.
            NaturalNumber(2047), NaturalNumber(3_215_031_751),
            // The product of two large primes (an RSA modulus shape).
            (NaturalNumber(1).shiftedLeft(by: 127) - NaturalNumber(1)) * (NaturalNumber(1).shiftedLeft(by: 89) - NaturalNumber(1)),
        ]
        for composite in composites {
            #expect(!ProbablePrimes.millerRabin(composite, rounds: 40, using: &generator), "\(Self.hex(composite))")
        }
        #expect(ProbablePrimes.hasSmallFactor(NaturalNumber(561)))
        #expect(!ProbablePrimes.hasSmallFactor(Self.number("11a135bf4bd002e6a08a3f38e422fe527d0bc0128794df58379")))
    }

    @Test("Rounds follow FIPS 186-5 Table B.1 where it has a row, and bound the error by 2^-100 below it")
    func rounds() {
        #expect(ProbablePrimes.millerRabinRounds(bits: 256) == 50)
        #expect(ProbablePrimes.millerRabinRounds(bits: 1024) == 5)
        #expect(ProbablePrimes.millerRabinRounds(bits: 1536) == 4)
        #expect(ProbablePrimes.millerRabinRounds(bits: 2048) == 4)
    }

    @Test("Generated keys: the modulus has exactly the size asked, and the numbers fit together", arguments: [512, 513, 768, 1001])
    func generation(_ bits: Int) throws {
        var generator = SystemRandomNumberGenerator()
        let key = RSAPrivateNumbers.generate(bits: bits, using: &generator)
        #expect(key.modulus.bitCount == bits)
        #expect(key.prime1.bitCount == (bits + 1) / 2 && key.prime2.bitCount == bits / 2)
        #expect(key.publicExponent == NaturalNumber(65537))
        let one = NaturalNumber(1)
        let pMinusOne = key.prime1 - one, qMinusOne = key.prime2 - one
        #expect(NaturalNumber.gcd(pMinusOne, NaturalNumber(65537)) == one && NaturalNumber.gcd(qMinusOne, NaturalNumber(65537)) == one)
        let lambda = (pMinusOne * qMinusOne).quotientAndRemainder(dividingBy: NaturalNumber.gcd(pMinusOne, qMinusOne)).quotient
        #expect((key.privateExponent * key.publicExponent).modulo(lambda) == one)
        for prime in [key.prime1, key.prime2] { #expect(ProbablePrimes.millerRabin(prime, rounds: 10, using: &generator)) }
        // The CRT result equals the plain c^d mod n, and the public operation undoes it.
        let block = Data((0..<key.byteCount).map { UInt8(truncatingIfNeeded: $0 &* 37) }.dropFirst())
        let signed = try key.privateOperation(block)
        let plain = OddModulus(key.modulus).power(NaturalNumber(bigEndian: block), key.privateExponent)
        #expect(NaturalNumber(bigEndian: signed) == plain)
        #expect(try key.publicOperation(signed) == Data(count: 1) + block)
    }

    @Test("Numbers that do not fit together are refused, and the input must be below the modulus")
    func inconsistentNumbers() throws {
        var generator = SystemRandomNumberGenerator()
        let key = RSAPrivateNumbers.generate(bits: 512, using: &generator)
        func rebuilt(coefficient: NaturalNumber? = nil, modulus: NaturalNumber? = nil) throws(PrimitiveError) -> RSAPrivateNumbers {
            try RSAPrivateNumbers(modulus: modulus ?? key.modulus, publicExponent: key.publicExponent, privateExponent: key.privateExponent,
                                  prime1: key.prime1, prime2: key.prime2, exponent1: key.exponent1, exponent2: key.exponent2,
                                  coefficient: coefficient ?? key.coefficient)
        }
        #expect(try rebuilt() == key)
        #expect(throws: PrimitiveError.self) { try rebuilt(coefficient: key.coefficient + NaturalNumber(1)) }
        #expect(throws: PrimitiveError.self) { try rebuilt(modulus: key.modulus + NaturalNumber(2)) }
        #expect(throws: PrimitiveError.self) { try key.privateOperation(key.modulus.bigEndian(count: key.byteCount)) }
    }

    @Test("PKCS #1 v1.5 encryption padding: the encoding decodes, and damaged blocks give nothing")
    func pkcs1EncryptionPadding() throws {
        let message = Data("small keys".utf8)
        let block = try RSAPKCS1Encryption.encode(message, size: 64)
        #expect(block.count == 64 && block.prefix(2) == Data([0, 2]) && !block.dropFirst(2).prefix(53 - 2).contains(0))
        #expect(RSAPKCS1Encryption.decode(block) == message)
        var wrongType = block
        wrongType[1] = 1
        #expect(RSAPKCS1Encryption.decode(wrongType) == nil)
        var shortPadding = block
        shortPadding[5] = 0
        #expect(RSAPKCS1Encryption.decode(shortPadding) == nil)
        #expect(throws: PrimitiveError.self) { try RSAPKCS1Encryption.encode(Data(count: 54), size: 64) }
    }
}
