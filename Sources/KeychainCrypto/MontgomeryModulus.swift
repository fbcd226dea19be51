import CKeychainSystem

/// Modular exponentiation for one fixed odd modulus below 2^1024, in Montgomery form. Made for
/// RFC 2409's 1024-bit prime (`OakleyGroup2`), where the exponent is our Diffie-Hellman private
/// key and so must not leak through timing.
///
/// **Montgomery form.** With R = 2^1024, a residue a is kept as aR mod p. The product of two such
/// values, divided by R (`multiply`, below), is again in that form: (aR)(bR)/R = abR. Dividing by
/// R modulo p is cheap because R is a power of two: add the multiple of p that clears the lowest
/// limb, then drop that limb, sixteen times. The multiple is m = t₀ · n0′ mod 2^64, where
/// n0′ = −p⁻¹ mod 2^64, which makes t + m·p divisible by 2^64. We interleave these reduction
/// steps with the schoolbook multiplication limb by limb (the "coarsely integrated operand
/// scanning" order of Koç, Acar and Kaliski, 1996), so the running sum never needs more than 18
/// limbs. The result is below 2p, and one subtraction of p, kept or not by a mask, brings it
/// below p. Entering the form is a multiplication by R² mod p; leaving it is one by 1.
///
/// **Exponentiation.** Left to right with a fixed 4-bit window: a table of base^0 … base^15
/// (Montgomery form), then for each of the 256 nibbles of the exponent, from the top, four
/// squarings and one multiplication by the table entry the nibble names. Leading zero nibbles
/// are not skipped: every exponent costs exactly 1024 squarings, 256 multiplications and the 14
/// multiplications that fill the table.
///
/// **Why it is constant-time.** Nothing the exponent decides changes which instructions run or
/// which addresses are read:
/// - the sequence of squarings and multiplications is the same for every exponent (above);
/// - the table entry is not read at an index taken from the exponent: all sixteen entries are
///   read, each ANDed with a mask that is all ones for the wanted entry and zero for the rest,
///   the mask computed with arithmetic, not a comparison and branch;
/// - inside a multiplication, carries are added as numbers, never tested, and the final
///   subtraction of p is always done, its result kept or dropped by a mask;
/// - the nibbles are taken at positions set by the loop counter, not by their values.
/// This rests on two assumptions. The CPU's 64×64-bit multiply must take the same time for all
/// operands (true of current x86-64 and AArch64 cores). And the optimiser must not turn masks
/// and carries back into branches: it can, and did for a first version of the borrow chain (see
/// `LimbArithmetic.subtractWithBorrow`). In the x86-64 release build of `power` (Swift 6.3.1, -O) every
/// conditional jump now tests a loop counter, and there is no conditional move; a change to this
/// file should be checked the same way (`swiftc -O -S`, then look at the jumps in `power`).
///
/// All scratch space (table and running values, about 2.8 KiB) is one
/// `withUnsafeTemporaryAllocation`, cleared before it is released: on the stack whenever the
/// standard library finds room there (else one heap block per exponentiation), and nothing is
/// allocated inside the loops.
package struct MontgomeryModulus: Sendable {
    /// p, odd.
    package let modulus: UInt1024
    /// n0′ = −p⁻¹ mod 2^64, the factor that picks the multiple of p clearing the lowest limb.
    package let n0Prime: UInt64
    /// R² mod p with R = 2^1024, used to enter Montgomery form.
    package let rSquared: UInt1024

    package init(_ modulus: UInt1024) {
        precondition(modulus[0] & 1 == 1, "Montgomery reduction needs an odd modulus")
        self.modulus = modulus
        self.n0Prime = Self.negatedInverse(of: modulus[0])
        self.rSquared = Self.powerOfTwo(2 * 1024, modulo: modulus)
    }

    /// −x⁻¹ mod 2^64 for an odd x, by Newton's iteration y ← y(2 − xy): y = 1 is right in the
    /// lowest bit (x is odd), and each step doubles the number of right low bits, so six steps
    /// give all 64.
    package static func negatedInverse(of x: UInt64) -> UInt64 {
        var inverse: UInt64 = 1
        for _ in 0..<6 { inverse = inverse &* (2 &- x &* inverse) }
        return 0 &- inverse
    }

    /// 2^exponent mod p, by doubling 1 modulo p `exponent` times. Public values only (it
    /// branches); run once per modulus, to find R² mod p.
    static func powerOfTwo(_ exponent: Int, modulo modulus: UInt1024) -> UInt1024 {
        var value = UInt1024.one
        for _ in 0..<exponent {
            // value < p, so 2·value < 2p: one subtraction reduces it. The bit shifted out of
            // the top limb is the 2^1024 the 16 limbs cannot hold.
            var carry: UInt64 = 0
            value.withLimbs { limbs in
                for limb in 0..<UInt1024.limbCount {
                    let word = limbs[limb]
                    limbs[limb] = word << 1 | carry
                    carry = word >> 63
                }
            }
            let (difference, borrow) = value.subtractingReportingBorrow(modulus)
            if carry == 1 || !borrow { value = difference }
        }
        return value
    }

    /// base^exponent mod p, for any base below 2^1024 (it need not be reduced) and any
    /// exponent. Time and memory accesses depend on neither (see the type's documentation).
    package func power(_ base: UInt1024, _ exponent: UInt1024) -> UInt1024 {
        let limbs = UInt1024.limbCount
        let windowBits = 4
        let tableCount = 1 << windowBits
        // Layout of the scratch space, in limbs.
        let tableOffset = 0
        let accumulatorOffset = tableOffset + tableCount * limbs
        let selectedOffset = accumulatorOffset + limbs
        let modulusOffset = selectedOffset + limbs
        let exponentOffset = modulusOffset + limbs
        let operandOffset = exponentOffset + limbs
        let sumOffset = operandOffset + limbs          // CIOS's running sum: limbs + 2
        let scratchCount = sumOffset + limbs + 2

        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: scratchCount) { scratch in
            let start = scratch.baseAddress!
            scratch.initialize(repeating: 0)
            defer { cks_secure_zero(UnsafeMutableRawPointer(start), scratchCount * MemoryLayout<UInt64>.stride) }
            let table = start + tableOffset
            let accumulator = start + accumulatorOffset
            let selected = start + selectedOffset
            let p = start + modulusOffset
            let e = start + exponentOffset
            let operand = start + operandOffset
            let sum = start + sumOffset
            for limb in 0..<limbs {
                p[limb] = modulus[limb]
                e[limb] = exponent[limb]
            }
            let n0Prime = self.n0Prime

            // table[0] = 1·R mod p, table[1] = base·R mod p (base·R² / R), table[i] = table[i−1]·table[1].
            for limb in 0..<limbs { operand[limb] = rSquared[limb] }
            for limb in 0..<limbs { accumulator[limb] = UInt1024.one[limb] }
            Self.multiply(table, accumulator, operand, p, n0Prime, sum)
            for limb in 0..<limbs { accumulator[limb] = base[limb] }
            Self.multiply(table + limbs, accumulator, operand, p, n0Prime, sum)
            for entry in 2..<tableCount {
                Self.multiply(table + entry * limbs, table + (entry - 1) * limbs, table + limbs, p, n0Prime, sum)
            }

            // The accumulator starts at 1 (Montgomery form); squaring it before the first
            // multiplication changes nothing but keeps every window the same work.
            for limb in 0..<limbs { accumulator[limb] = table[limb] }
            let windowsPerLimb = 64 / windowBits
            let windowCount = limbs * windowsPerLimb
            for step in 0..<windowCount {
                let window = windowCount - 1 - step
                for _ in 0..<windowBits { Self.multiply(accumulator, accumulator, accumulator, p, n0Prime, sum) }
                let shift = UInt64(windowBits * (window % windowsPerLimb))
                let nibble = (e[window / windowsPerLimb] >> shift) & UInt64(tableCount - 1)
                Self.select(selected, from: table, count: tableCount, index: nibble)
                Self.multiply(accumulator, accumulator, selected, p, n0Prime, sum)
            }

            // Leave Montgomery form: a·R · 1 / R = a.
            for limb in 0..<limbs { operand[limb] = UInt1024.one[limb] }
            Self.multiply(accumulator, accumulator, operand, p, n0Prime, sum)
            var result = UInt1024()
            for limb in 0..<limbs { result[limb] = accumulator[limb] }
            return result
        }
    }

    /// Copies table entry `index` (of `count`, each 16 limbs) into `destination` by reading every
    /// entry and masking: no branch and no address depends on `index`.
    @inline(__always)
    private static func select(_ destination: UnsafeMutablePointer<UInt64>, from table: UnsafePointer<UInt64>,
                               count: Int, index: UInt64) {
        let limbs = UInt1024.limbCount
        for limb in 0..<limbs { destination[limb] = 0 }
        for entry in 0..<count {
            // difference is 0 exactly for the wanted entry; (d | −d) has its top bit set for
            // every other value, so `hit` is 1 for the wanted entry and 0 otherwise.
            let difference = UInt64(entry) ^ index
            let hit = ((difference | (0 &- difference)) >> 63) ^ 1
            let mask = 0 &- hit
            let row = table + entry * limbs
            for limb in 0..<limbs { destination[limb] |= row[limb] & mask }
        }
    }

    /// a·b + c + d as a 128-bit (high, low) pair; it cannot overflow: (2^64−1)² + 2(2^64−1) = 2^128 − 1.
    @inline(__always)
    private static func multiplyAdd(_ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: UInt64) -> (high: UInt64, low: UInt64) {
        let (high, low) = a.multipliedFullWidth(by: b)
        let (sum1, carry1) = low.addingReportingOverflow(c)
        let (sum2, carry2) = sum1.addingReportingOverflow(d)
        return (high &+ (carry1 ? 1 : 0) &+ (carry2 ? 1 : 0), sum2)
    }

    /// result = a·b / R mod p (CIOS Montgomery multiplication), for a·b < p·R, which holds when
    /// either factor is below p and the other below R. `result` may be `a` or `b`: both are read
    /// in full before `result` is written. `sum` is 18 limbs of scratch.
    @inline(__always)
    private static func multiply(_ result: UnsafeMutablePointer<UInt64>, _ a: UnsafePointer<UInt64>,
                                 _ b: UnsafePointer<UInt64>, _ p: UnsafePointer<UInt64>, _ n0Prime: UInt64,
                                 _ sum: UnsafeMutablePointer<UInt64>) {
        let limbs = UInt1024.limbCount
        for limb in 0..<(limbs + 2) { sum[limb] = 0 }
        for i in 0..<limbs {
            // sum += a · b[i]
            let bi = b[i]
            var carry: UInt64 = 0
            for j in 0..<limbs {
                (carry, sum[j]) = multiplyAdd(a[j], bi, sum[j], carry)
            }
            let (top, topCarry) = sum[limbs].addingReportingOverflow(carry)
            sum[limbs] = top
            sum[limbs + 1] = topCarry ? 1 : 0

            // sum = (sum + m·p) / 2^64, with m chosen so that the lowest limb becomes zero.
            let m = sum[0] &* n0Prime
            var reduceCarry = multiplyAdd(m, p[0], sum[0], 0).high
            for j in 1..<limbs {
                (reduceCarry, sum[j - 1]) = multiplyAdd(m, p[j], sum[j], reduceCarry)
            }
            let (shifted, shiftedCarry) = sum[limbs].addingReportingOverflow(reduceCarry)
            sum[limbs - 1] = shifted
            sum[limbs] = sum[limbs + 1] &+ (shiftedCarry ? 1 : 0)
        }

        // sum < 2p. Subtract p into `result`, then keep the difference when sum ≥ p (a carry
        // into limb 16, or no borrow out of the subtraction), else restore sum, by mask.
        var borrow: UInt64 = 0
        for j in 0..<limbs {
            (borrow, result[j]) = LimbArithmetic.subtractWithBorrow(sum[j], p[j], borrow)
        }
        let keepDifference = 0 &- (sum[limbs] | (borrow ^ 1))
        for j in 0..<limbs {
            result[j] = (result[j] & keepDifference) | (sum[j] & ~keepDifference)
        }
    }
}
