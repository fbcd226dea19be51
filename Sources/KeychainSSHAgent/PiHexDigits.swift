/// The hexadecimal digits of the fraction of pi, as 32-bit words: the first word is 0x243F6A88
/// (pi = 3.243F6A88 85A308D3 …). Blowfish's initial subkeys and S-boxes are these digits, in
/// order (Schneier, "Description of a New Variable-Length Key, 64-Bit Block Cipher", 1993), so
/// they are computed here rather than written out as a table.
///
/// Machin's formula, pi = 16·arctan(1/5) − 4·arctan(1/239), in fixed point: a number is an
/// array of 32-bit limbs, the first the integer part, the others the fraction, most significant
/// first. Each arctangent is the alternating series Σ (−1)ᵏ / ((2k+1)·x²ᵏ⁺¹), which needs only
/// division by a small integer, addition and subtraction of limb arrays.
enum PiHexDigits {
    /// The first `count` words of the fraction.
    static func words(_ count: Int) -> [UInt32] {
        // Each division truncates, losing less than one unit of the last limb; the series of
        // 1/5 has about 4.6 terms per 32-bit word of precision, so a few thousand terms lose
        // far less than 2^32 units: two guard limbs keep every returned word exact.
        let limbs = 1 + count + 2
        var pi = arctangentOfInverse(5, limbs: limbs)
        multiply(&pi, by: 16)
        var second = arctangentOfInverse(239, limbs: limbs)
        multiply(&second, by: 4)
        subtract(&pi, second, from: 0)
        return Array(pi[1...count])
    }

    /// arctan(1/x) to `limbs` limbs.
    private static func arctangentOfInverse(_ x: UInt32, limbs: Int) -> [UInt32] {
        var power = [UInt32](repeating: 0, count: limbs)
        power[0] = 1
        var leading = divide(&power, by: x, from: 0)       // power = 1/x
        var sum = power
        let square = x * x
        var k: UInt32 = 1
        while leading < limbs {
            leading = divide(&power, by: square, from: leading)  // 1/x^(2k+1)
            var term = power
            _ = divide(&term, by: 2 * k + 1, from: leading)
            if k % 2 == 1 { subtract(&sum, term, from: leading) } else { add(&sum, term, from: leading) }
            k += 1
        }
        return sum
    }

    /// Divides in place by `divisor`; limbs before `from` are known to be zero. Returns the
    /// index of the first nonzero limb afterwards (`number.count` when it is zero), so that the
    /// next division skips the zeros: the terms shrink, and the series stops when one is zero.
    private static func divide(_ number: inout [UInt32], by divisor: UInt32, from: Int) -> Int {
        var remainder: UInt64 = 0
        var firstNonzero = number.count
        number.withUnsafeMutableBufferPointer { limbs in
            for index in from..<limbs.count {
                let current = remainder << 32 | UInt64(limbs[index])
                let quotient = current / UInt64(divisor)
                remainder = current - quotient * UInt64(divisor)
                limbs[index] = UInt32(truncatingIfNeeded: quotient)
                if quotient != 0 && firstNonzero == limbs.count { firstNonzero = index }
            }
        }
        return firstNonzero
    }

    private static func multiply(_ number: inout [UInt32], by factor: UInt32) {
        var carry: UInt64 = 0
        for index in number.indices.reversed() {
            let product = UInt64(number[index]) * UInt64(factor) + carry
            number[index] = UInt32(truncatingIfNeeded: product)
            carry = product >> 32
        }
    }

    /// Adds `other`, whose limbs before `from` are zero: above them only a carry is left to pass on.
    private static func add(_ number: inout [UInt32], _ other: [UInt32], from: Int) {
        var carry: UInt64 = 0
        for index in number.indices.reversed() {
            if index < from && carry == 0 { return }
            let total = UInt64(number[index]) + UInt64(other[index]) + carry
            number[index] = UInt32(truncatingIfNeeded: total)
            carry = total >> 32
        }
    }

    /// Subtracts `other`, whose limbs before `from` are zero (the result stays positive here).
    private static func subtract(_ number: inout [UInt32], _ other: [UInt32], from: Int) {
        var borrow: UInt32 = 0
        for index in number.indices.reversed() {
            if index < from && borrow == 0 { return }
            let (partial, overflowA) = number[index].subtractingReportingOverflow(other[index])
            let (result, overflowB) = partial.subtractingReportingOverflow(borrow)
            number[index] = result
            borrow = (overflowA || overflowB) ? 1 : 0
        }
    }
}
