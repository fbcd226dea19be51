package import Foundation

/// An RSA private key as its PKCS #1 numbers (RFC 8017 §A.1.2), with its generation and its
/// private operation by the Chinese remainder theorem. For the keys swift-crypto cannot make or
/// hold: of a size BoringSSL does not generate (not a multiple of 128 bits), or below 1024 bits.
/// Everything swift-crypto accepts stays with swift-crypto.
///
/// **Not constant time** (``OddModulus``, ``NaturalNumber``): timing may tell an attacker
/// something about the primes. Such keys are for compatibility with code that asks for them,
/// not for secrecy (docs/keys-and-certificates.md).
package struct RSAPrivateNumbers: Sendable, Equatable {
    package let modulus: NaturalNumber
    package let publicExponent: NaturalNumber
    package let privateExponent: NaturalNumber
    package let prime1: NaturalNumber
    package let prime2: NaturalNumber
    package let exponent1: NaturalNumber
    package let exponent2: NaturalNumber
    package let coefficient: NaturalNumber

    /// The public exponent of the keys made here, as Security's (SecRSAKey.c).
    package static let defaultPublicExponent: UInt64 = 65537

    /// Numbers read from a key, checked for consistency (n = p·q, e·dP ≡ 1 mod (p − 1),
    /// e·dQ ≡ 1 mod (q − 1), q·qInv ≡ 1 mod p, the CRT exponents reduced, d below n), so
    /// that the private operation gives the right answer. Primality is not tested (nor does
    /// Security when it imports a key). `privateExponent` is kept only to be written back.
    package init(modulus n: NaturalNumber, publicExponent e: NaturalNumber, privateExponent d: NaturalNumber,
                 prime1 p: NaturalNumber, prime2 q: NaturalNumber, exponent1 dP: NaturalNumber,
                 exponent2 dQ: NaturalNumber, coefficient qInv: NaturalNumber) throws(PrimitiveError) {
        let one = NaturalNumber(1)
        guard p.isOdd, q.isOdd, NaturalNumber(2) < p, NaturalNumber(2) < q, p * q == n,
              e.isOdd, one < e, e < n, !d.isZero, d < n else {
            throw PrimitiveError(.unreadableKey, "the RSA private key's numbers do not fit together")
        }
        let pMinusOne = p - one, qMinusOne = q - one
        guard dP < pMinusOne, dQ < qMinusOne, qInv < p,
              (e * dP).modulo(pMinusOne) == one, (e * dQ).modulo(qMinusOne) == one,
              (q * qInv).modulo(p) == one else {
            throw PrimitiveError(.unreadableKey, "the RSA private key's numbers do not fit together")
        }
        (modulus, publicExponent, privateExponent) = (n, e, d)
        (prime1, prime2, exponent1, exponent2, coefficient) = (p, q, dP, dQ, qInv)
    }

    /// A new key whose modulus has exactly `bits` bits (at least 32), e = 65537, per
    /// FIPS 186-5 §A.1.3 except the auxiliary-prime conditions: p and q of ⌈bits/2⌉ and
    /// ⌊bits/2⌋ bits with their top two bits set (so that p·q has all `bits`), gcd(e, p − 1) =
    /// gcd(e, q − 1) = 1, |p − q| > 2^(bits/2 − 100) when that is meaningful, and
    /// d = e⁻¹ mod lcm(p − 1, q − 1) above 2^(bits/2).
    package static func generate<Generator: RandomNumberGenerator>(bits: Int, using generator: inout Generator) -> RSAPrivateNumbers {
        precondition(bits >= 32)
        let e = defaultPublicExponent
        let one = NaturalNumber(1)
        while true {
            var p = ProbablePrimes.generate(bits: (bits + 1) / 2, publicExponent: e, using: &generator)
            var q = ProbablePrimes.generate(bits: bits / 2, publicExponent: e, using: &generator)
            if p == q { continue }
            if p < q { swap(&p, &q) }
            if bits / 2 > 100, !(one.shiftedLeft(by: bits / 2 - 100) < p - q) { continue }
            let n = p * q
            guard n.bitCount == bits else { continue } // cannot happen with the top two bits set
            let pMinusOne = p - one, qMinusOne = q - one
            let lambda = (pMinusOne * qMinusOne).quotientAndRemainder(dividingBy: NaturalNumber.gcd(pMinusOne, qMinusOne)).quotient
            guard let d = inverse(ofSmall: e, modulo: lambda), one.shiftedLeft(by: bits / 2) < d else { continue }
            // q⁻¹ mod p by Fermat's little theorem (p is prime): q^(p − 2).
            let qInv = OddModulus(p).power(q.modulo(p), p - NaturalNumber(2))
            return try! RSAPrivateNumbers(modulus: n, publicExponent: NaturalNumber(e), privateExponent: d, prime1: p, prime2: q,
                                          exponent1: d.modulo(pMinusOne), exponent2: d.modulo(qMinusOne), coefficient: qInv)
        }
    }

    /// e⁻¹ mod m for a small odd e, without a big extended Euclid: with r = m mod e, k is chosen
    /// in [1, e) so that k·m ≡ −1 (mod e), i.e. k ≡ −r⁻¹; then (k·m + 1) / e is exact and is
    /// the inverse. Nil when gcd(e, m) ≠ 1.
    static func inverse(ofSmall e: UInt64, modulo m: NaturalNumber) -> NaturalNumber? {
        let r = m.remainder(dividingBy: e)
        // r⁻¹ mod e by the extended Euclid on machine words.
        var (oldR, newR) = (Int64(r), Int64(e))
        var (oldS, newS): (Int64, Int64) = (1, 0)
        while newR != 0 {
            let quotient = oldR / newR
            (oldR, newR) = (newR, oldR - quotient * newR)
            (oldS, newS) = (newS, oldS - quotient * newS)
        }
        guard oldR == 1 else { return nil }
        let rInverse = UInt64((oldS % Int64(e) + Int64(e)) % Int64(e))
        let k = (e - rInverse) % e
        let numerator = NaturalNumber(k) * m + NaturalNumber(1)
        guard numerator.remainder(dividingBy: e) == 0 else { return nil }
        return numerator.quotient(dividingBy: e)
    }

    package var bitCount: Int { modulus.bitCount }

    /// The modulus's length in bytes.
    package var byteCount: Int { (modulus.bitCount + 7) / 8 }

    /// m = c^d mod n for a big-endian block of at most the modulus's length, by the CRT
    /// (RFC 8017 §5.1.2, second form), and checked by the public operation before it is
    /// returned (a wrong result from a fault would otherwise give the primes away). The result
    /// is as long as the modulus.
    package func privateOperation(_ block: Data) throws(PrimitiveError) -> Data {
        guard block.count <= byteCount else { throw .parameter("the input is longer than the RSA modulus") }
        let c = NaturalNumber(bigEndian: block)
        guard c < modulus else { throw .parameter("the input is not below the RSA modulus") }
        let m1 = OddModulus(prime1).power(c.modulo(prime1), exponent1)
        let m2 = OddModulus(prime2).power(c.modulo(prime2), exponent2)
        // h = qInv·(m1 − m2) mod p, with m2 first reduced mod p (q may exceed p when imported).
        let m2ModP = m2.modulo(prime1)
        let difference = m1 < m2ModP ? m1 + prime1 - m2ModP : m1 - m2ModP
        let h = OddModulus(prime1).multiply(coefficient, difference)
        let m = m2 + h * prime2
        guard OddModulus(modulus).power(m, publicExponent) == c else {
            throw PrimitiveError(.unreadableKey, "the RSA private operation failed its check")
        }
        return m.bigEndian(count: byteCount)
    }

    /// s^e mod n, as long as the modulus.
    package func publicOperation(_ block: Data) throws(PrimitiveError) -> Data {
        try RSARaw.publicOperation(modulus: modulus.minimalBigEndian, exponent: publicExponent.minimalBigEndian, block)
    }
}
