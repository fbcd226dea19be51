package import Foundation

// The arithmetic RSA key generation needs on top of `NaturalNumber`'s modular exponentiation:
// sums, differences, products, shifts and division. Written for clarity, not speed (the
// exponentiations that dominate key generation are `OddModulus`'s) and not in constant time:
// see docs/keys-and-certificates.md, "Sizes as Apple answers them", for what that means for the
// keys made with it.
extension NaturalNumber {
    package init(_ value: UInt64) { self.init(limbs: [value]) }

    package var isZero: Bool { limbs.isEmpty }
    package var isOdd: Bool { (limbs.first ?? 0) & 1 == 1 }

    /// The number as big-endian bytes without leading zeros (one zero byte for zero).
    package var minimalBigEndian: Data { bigEndian(count: Swift.max(1, (bitCount + 7) / 8)) }

    package static func + (lhs: NaturalNumber, rhs: NaturalNumber) -> NaturalNumber {
        let count = Swift.max(lhs.limbs.count, rhs.limbs.count) + 1
        var sum = [UInt64](repeating: 0, count: count)
        var carry: UInt64 = 0
        for index in 0..<count {
            (carry, sum[index]) = LimbArithmetic.addWithCarry(lhs.limb(index), rhs.limb(index), carry)
        }
        return NaturalNumber(limbs: sum)
    }

    /// lhs − rhs; lhs must not be below rhs (a programming error otherwise).
    package static func - (lhs: NaturalNumber, rhs: NaturalNumber) -> NaturalNumber {
        precondition(!(lhs < rhs), "natural subtraction below zero")
        var difference = [UInt64](repeating: 0, count: lhs.limbs.count)
        var borrow: UInt64 = 0
        for index in 0..<lhs.limbs.count {
            (borrow, difference[index]) = LimbArithmetic.subtractWithBorrow(lhs.limbs[index], rhs.limb(index), borrow)
        }
        return NaturalNumber(limbs: difference)
    }

    /// Schoolbook multiplication.
    package static func * (lhs: NaturalNumber, rhs: NaturalNumber) -> NaturalNumber {
        if lhs.isZero || rhs.isZero { return NaturalNumber(limbs: []) }
        var product = [UInt64](repeating: 0, count: lhs.limbs.count + rhs.limbs.count)
        for (i, x) in lhs.limbs.enumerated() {
            var carry: UInt64 = 0
            for (j, y) in rhs.limbs.enumerated() {
                let (high, low) = x.multipliedFullWidth(by: y)
                let wide = UInt128(high) << 64 | UInt128(low)
                let total = wide &+ UInt128(product[i + j]) &+ UInt128(carry)
                product[i + j] = UInt64(truncatingIfNeeded: total)
                carry = UInt64(truncatingIfNeeded: total >> 64)
            }
            product[i + rhs.limbs.count] = carry
        }
        return NaturalNumber(limbs: product)
    }

    package func shiftedLeft(by bits: Int) -> NaturalNumber {
        if isZero || bits == 0 { return self }
        let whole = bits / 64, part = UInt64(bits % 64)
        var shifted = [UInt64](repeating: 0, count: limbs.count + whole + 1)
        for (index, limb) in limbs.enumerated() {
            shifted[index + whole] |= limb << part
            if part != 0 { shifted[index + whole + 1] |= limb >> (64 - part) }
        }
        return NaturalNumber(limbs: shifted)
    }

    package func shiftedRight(by bits: Int) -> NaturalNumber {
        let whole = bits / 64, part = UInt64(bits % 64)
        guard whole < limbs.count else { return NaturalNumber(limbs: []) }
        var shifted = [UInt64](repeating: 0, count: limbs.count - whole)
        for index in shifted.indices {
            shifted[index] = limbs[index + whole] >> part
            if part != 0, index + whole + 1 < limbs.count { shifted[index] |= limbs[index + whole + 1] << (64 - part) }
        }
        return NaturalNumber(limbs: shifted)
    }

    /// The number of trailing zero bits (zero for zero).
    package var trailingZeroBitCount: Int {
        for (index, limb) in limbs.enumerated() where limb != 0 { return index * 64 + limb.trailingZeroBitCount }
        return 0
    }

    /// self mod a one-limb divisor (not zero).
    package func remainder(dividingBy divisor: UInt64) -> UInt64 {
        precondition(divisor != 0)
        var remainder: UInt64 = 0
        for limb in limbs.reversed() { remainder = divisor.dividingFullWidth((remainder, limb)).remainder }
        return remainder
    }

    /// self divided by a one-limb divisor (not zero).
    package func quotient(dividingBy divisor: UInt64) -> NaturalNumber {
        precondition(divisor != 0)
        var quotient = [UInt64](repeating: 0, count: limbs.count)
        var remainder: UInt64 = 0
        for index in stride(from: limbs.count - 1, through: 0, by: -1) {
            (quotient[index], remainder) = divisor.dividingFullWidth((remainder, limbs[index]))
        }
        return NaturalNumber(limbs: quotient)
    }

    /// Long division, a bit at a time (shift and subtract over the quotient's bits): slow, and
    /// used only a few times per key (λ, d mod (p − 1), the reductions of the CRT).
    package func quotientAndRemainder(dividingBy divisor: NaturalNumber) -> (quotient: NaturalNumber, remainder: NaturalNumber) {
        precondition(!divisor.isZero, "division by zero")
        if self < divisor { return (NaturalNumber(limbs: []), self) }
        var remainder = self
        var quotientBits = [UInt64](repeating: 0, count: limbs.count)
        var shift = bitCount - divisor.bitCount
        var shifted = divisor.shiftedLeft(by: shift)
        while shift >= 0 {
            if !(remainder < shifted) {
                remainder = remainder - shifted
                quotientBits[shift / 64] |= 1 << UInt64(shift % 64)
            }
            shifted = shifted.shiftedRight(by: 1)
            shift -= 1
        }
        return (NaturalNumber(limbs: quotientBits), remainder)
    }

    package func modulo(_ divisor: NaturalNumber) -> NaturalNumber { quotientAndRemainder(dividingBy: divisor).remainder }

    /// The greatest common divisor (Euclid's algorithm).
    package static func gcd(_ a: NaturalNumber, _ b: NaturalNumber) -> NaturalNumber {
        var (x, y) = (a, b)
        while !y.isZero { (x, y) = (y, x.modulo(y)) }
        return x
    }

    /// The limb at `index`, zero beyond the top.
    private func limb(_ index: Int) -> UInt64 { index < limbs.count ? limbs[index] : 0 }
}
