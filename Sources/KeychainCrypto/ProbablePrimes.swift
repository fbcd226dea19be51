/// Random probable primes for RSA (FIPS 186-5 §A.1.3 and §B.3): random odd candidates of an
/// exact bit length with the top two bits set, sifted by trial division, then Miller–Rabin.
package enum ProbablePrimes {
    /// The odd primes below 2000, for trial division.
    package static let smallPrimes: [UInt64] = {
        var isComposite = [Bool](repeating: false, count: 2000)
        var primes: [UInt64] = []
        for n in 3..<2000 where n % 2 == 1 && !isComposite[n] {
            primes.append(UInt64(n))
            for multiple in stride(from: n * n, to: 2000, by: 2 * n) { isComposite[multiple] = true }
        }
        return primes
    }()

    /// The small primes grouped so that each group's product fits in 64 bits: one multi-limb
    /// remainder per group, then one machine division per prime.
    private static let groups: [(product: UInt64, primes: [UInt64])] = {
        var groups: [(UInt64, [UInt64])] = []
        var product: UInt64 = 1, members: [UInt64] = []
        for prime in smallPrimes {
            let (next, overflow) = product.multipliedReportingOverflow(by: prime)
            if overflow {
                groups.append((product, members))
                product = prime
                members = [prime]
            } else {
                product = next
                members.append(prime)
            }
        }
        groups.append((product, members))
        return groups
    }()

    /// Miller–Rabin rounds for a random candidate of `bits` bits. From 1024 bits, FIPS 186-5
    /// Table B.1 (the column of the smaller error probability: 5 rounds for primes of 1024 bits,
    /// 4 from 1536). The table has no row for smaller primes, so they get 50 rounds, which bounds
    /// the error by 4^−50 = 2^−100 for any odd composite, random or not.
    package static func millerRabinRounds(bits: Int) -> Int {
        if bits >= 1536 { return 4 }
        if bits >= 1024 { return 5 }
        return 50
    }

    /// Whether a small prime divides `candidate` (the candidate itself excepted).
    package static func hasSmallFactor(_ candidate: NaturalNumber) -> Bool {
        for group in groups {
            let remainder = candidate.remainder(dividingBy: group.product)
            for prime in group.primes where remainder % prime == 0 {
                if candidate == NaturalNumber(prime) { return false }
                return true
            }
        }
        return false
    }

    /// Miller–Rabin (FIPS 186-5 §B.3.1) with `rounds` random bases in [2, w − 2]: false means
    /// w is composite; true that it is prime but with probability at most 4^−rounds. w must be
    /// odd and above 3.
    package static func millerRabin<Generator: RandomNumberGenerator>(_ w: NaturalNumber, rounds: Int,
                                                                      using generator: inout Generator) -> Bool {
        precondition(w.isOdd && NaturalNumber(3) < w)
        let one = NaturalNumber(1)
        let wMinusOne = w - one
        let a = wMinusOne.trailingZeroBitCount
        let m = wMinusOne.shiftedRight(by: a)
        let arithmetic = OddModulus(w)
        for _ in 0..<rounds {
            var b: NaturalNumber
            repeat { b = random(below: wMinusOne, using: &generator) } while b < NaturalNumber(2)
            var z = arithmetic.power(b, m)
            if z == one || z == wMinusOne { continue }
            var reachedMinusOne = false
            for _ in 1..<Swift.max(a, 1) {
                z = arithmetic.multiply(z, z)
                if z == wMinusOne { reachedMinusOne = true; break }
                if z == one { return false }
            }
            if !reachedMinusOne { return false }
        }
        return true
    }

    /// A probable prime of exactly `bits` bits (at least 16) whose top two bits are set, and
    /// with gcd(p − 1, e) = 1 for the given odd public exponent.
    package static func generate<Generator: RandomNumberGenerator>(bits: Int, publicExponent e: UInt64,
                                                                   using generator: inout Generator) -> NaturalNumber {
        precondition(bits >= 16 && e % 2 == 1)
        let rounds = millerRabinRounds(bits: bits)
        while true {
            let candidate = randomCandidate(bits: bits, using: &generator)
            if hasSmallFactor(candidate) { continue }
            let pMinusOne = candidate - NaturalNumber(1)
            if NaturalNumber.gcd(pMinusOne, NaturalNumber(e)) != NaturalNumber(1) { continue }
            if millerRabin(candidate, rounds: rounds, using: &generator) { return candidate }
        }
    }

    /// A random odd number of exactly `bits` bits with its top two bits set.
    package static func randomCandidate<Generator: RandomNumberGenerator>(bits: Int, using generator: inout Generator) -> NaturalNumber {
        var limbs = (0..<((bits + 63) / 64)).map { _ in generator.next() as UInt64 }
        let topBits = bits - 64 * (limbs.count - 1)  // 1…64 bits used in the top limb
        let top = limbs.count - 1
        if topBits < 64 { limbs[top] &= (UInt64(1) << UInt64(topBits)) - 1 }
        limbs[top] |= UInt64(1) << UInt64(topBits - 1)
        if topBits >= 2 { limbs[top] |= UInt64(1) << UInt64(topBits - 2) } else { limbs[top - 1] |= UInt64(1) << 63 }
        limbs[0] |= 1
        return NaturalNumber(limbs: limbs)
    }

    /// A uniform random number in [0, bound) (bound above zero), by rejection.
    package static func random<Generator: RandomNumberGenerator>(below bound: NaturalNumber, using generator: inout Generator) -> NaturalNumber {
        let bits = bound.bitCount
        while true {
            var limbs = (0..<((bits + 63) / 64)).map { _ in generator.next() as UInt64 }
            let topBits = bits - 64 * (limbs.count - 1)
            if topBits < 64 { limbs[limbs.count - 1] &= (UInt64(1) << UInt64(topBits)) - 1 }
            let value = NaturalNumber(limbs: limbs)
            if value < bound { return value }
        }
    }
}
