/// Modular multiplication and exponentiation for an odd modulus of any size, in Montgomery form
/// (the scheme `MontgomeryModulus` describes, with R = 2^(64·k) for a modulus of k limbs). Made
/// for the RSA keys swift-crypto cannot hold or make (below 1024 bits, or of a size BoringSSL
/// does not generate): Miller–Rabin on prime candidates and the CRT private operation.
///
/// **Not constant time.** The exponentiation skips nothing, but the window table is read at an
/// index taken from the exponent and the final subtraction is a branch; unlike
/// `MontgomeryModulus` it makes no promise about timing. docs/keys-and-certificates.md says what
/// that means for the keys that use it.
package struct OddModulus: Sendable {
    package let modulus: NaturalNumber
    /// The modulus's limbs (k of them).
    private let p: [UInt64]
    /// −p⁻¹ mod 2^64.
    private let n0Prime: UInt64
    /// R² mod p, to enter Montgomery form.
    private let rSquared: [UInt64]

    /// A modulus, which must be odd and above one (a programming error otherwise).
    package init(_ modulus: NaturalNumber) {
        precondition(modulus.isOdd && modulus.bitCount > 1, "an odd modulus above one")
        self.modulus = modulus
        p = modulus.limbs
        // Newton's iteration doubles the correct low bits of the inverse each step: 1 → 64 in 6.
        var inverse: UInt64 = 1
        for _ in 0..<6 { inverse = inverse &* (2 &- p[0] &* inverse) }
        n0Prime = 0 &- inverse
        rSquared = Self.powerOfTwo(128 * p.count, modulo: p)
    }

    /// 2^exponent mod p by doubling 1 that many times, subtracting p whenever the double
    /// reaches it (x < p before each doubling, so once is enough). Done in place in k + 1
    /// limbs: this runs for every prime candidate, where a long division would dominate.
    private static func powerOfTwo(_ exponent: Int, modulo p: [UInt64]) -> [UInt64] {
        let k = p.count
        var x = [UInt64](repeating: 0, count: k + 1)
        x[0] = 1
        x.withUnsafeMutableBufferPointer { x in
            p.withUnsafeBufferPointer { p in
                for _ in 0..<exponent {
                    var carry: UInt64 = 0
                    for index in 0...k {
                        let next = x[index] >> 63
                        x[index] = (x[index] << 1) | carry
                        carry = next
                    }
                    var atLeastP = x[k] != 0
                    if !atLeastP {
                        atLeastP = true
                        for index in stride(from: k - 1, through: 0, by: -1) where x[index] != p[index] {
                            atLeastP = x[index] > p[index]
                            break
                        }
                    }
                    guard atLeastP else { continue }
                    var borrow: UInt64 = 0
                    for index in 0..<k { (borrow, x[index]) = LimbArithmetic.subtractWithBorrow(x[index], p[index], borrow) }
                    x[k] &-= borrow
                }
            }
        }
        return Array(x.prefix(k))
    }

    /// x·y mod p, for x and y below p.
    package func multiply(_ x: NaturalNumber, _ y: NaturalNumber) -> NaturalNumber {
        let product = montgomery(Self.padded(x, p.count), Self.padded(y, p.count)) // x·y / R
        return NaturalNumber(limbs: montgomery(product, rSquared))                  // · R² / R
    }

    /// base^exponent mod p, for base below p: left to right, four exponent bits at a time.
    package func power(_ base: NaturalNumber, _ exponent: NaturalNumber) -> NaturalNumber {
        let k = p.count
        var one = [UInt64](repeating: 0, count: k)
        one[0] = 1
        var table = [[UInt64]](repeating: [], count: 16)
        table[0] = montgomery(one, rSquared)
        table[1] = montgomery(Self.padded(base, k), rSquared)
        for entry in 2..<16 { table[entry] = montgomery(table[entry - 1], table[1]) }
        var accumulator = table[0]
        let windows = (exponent.bitCount + 3) / 4
        for window in stride(from: windows - 1, through: 0, by: -1) {
            for _ in 0..<4 { accumulator = montgomery(accumulator, accumulator) }
            var nibble = 0
            for bit in 0..<4 where window * 4 + bit < exponent.bitCount && exponent.bit(window * 4 + bit) { nibble |= 1 << bit }
            if nibble != 0 { accumulator = montgomery(accumulator, table[nibble]) }
        }
        return NaturalNumber(limbs: montgomery(accumulator, one))
    }

    private static func padded(_ x: NaturalNumber, _ count: Int) -> [UInt64] {
        precondition(x.limbs.count <= count)
        return x.limbs + [UInt64](repeating: 0, count: count - x.limbs.count)
    }

    /// a·b / R mod p (CIOS, as in `MontgomeryModulus.multiply`), for a, b of k limbs below p.
    private func montgomery(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
        let k = p.count
        var result = [UInt64](repeating: 0, count: k)
        var t = [UInt64](repeating: 0, count: k + 2)
        let n0Prime = self.n0Prime
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                p.withUnsafeBufferPointer { p in
                    t.withUnsafeMutableBufferPointer { t in
                        for i in 0..<k {
                            var carry: UInt64 = 0
                            for j in 0..<k { (carry, t[j]) = Self.multiplyAdd(a[j], b[i], t[j], carry) }
                            let (top, topCarry) = t[k].addingReportingOverflow(carry)
                            t[k] = top
                            t[k + 1] = topCarry ? 1 : 0
                            let m = t[0] &* n0Prime
                            carry = Self.multiplyAdd(m, p[0], t[0], 0).high
                            for j in 1..<k { (carry, t[j - 1]) = Self.multiplyAdd(m, p[j], t[j], carry) }
                            let (shifted, shiftedCarry) = t[k].addingReportingOverflow(carry)
                            t[k - 1] = shifted
                            t[k] = t[k + 1] &+ (shiftedCarry ? 1 : 0)
                        }
                    }
                    // t < 2p: subtract p once when t ≥ p.
                    var atLeastP = t[k] != 0
                    if !atLeastP {
                        atLeastP = true
                        for j in stride(from: k - 1, through: 0, by: -1) where t[j] != p[j] {
                            atLeastP = t[j] > p[j]
                            break
                        }
                    }
                    var borrow: UInt64 = 0
                    for j in 0..<k {
                        if atLeastP {
                            (borrow, result[j]) = LimbArithmetic.subtractWithBorrow(t[j], p[j], borrow)
                        } else {
                            result[j] = t[j]
                        }
                    }
                }
            }
        }
        return result
    }

    /// a·b + c + d as (high, low); it cannot overflow 128 bits.
    @inline(__always)
    private static func multiplyAdd(_ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: UInt64) -> (high: UInt64, low: UInt64) {
        let (high, low) = a.multipliedFullWidth(by: b)
        let (sum1, carry1) = low.addingReportingOverflow(c)
        let (sum2, carry2) = sum1.addingReportingOverflow(d)
        return (high &+ (carry1 ? 1 : 0) &+ (carry2 ? 1 : 0), sum2)
    }
}
