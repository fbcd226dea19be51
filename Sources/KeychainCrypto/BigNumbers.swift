import CKeychainSystem
package import Foundation

// The package's two big-number types, and the limb arithmetic they share. They are two on
// purpose: `UInt1024` holds secrets (a Diffie-Hellman private exponent, a shared secret) and so
// is fixed-size and constant-time; `NaturalNumber` holds only public values (an RSA modulus,
// exponent, signature or ciphertext) and so is variable-size and simply written.

/// Limb-level steps both big-number types use: 64-bit limbs, the least significant first.
enum LimbArithmetic {
    /// x − y − borrow (borrow 0 or 1) as a limb and the borrow out (0 or 1), branch-free. Done
    /// in 128 bits, whose top half is all ones exactly when the subtraction wrapped. The more
    /// obvious pair of `subtractingReportingOverflow` compiles to a branch on the first borrow
    /// (the optimiser knows the second cannot happen then), a branch on secret data in `UInt1024`.
    @inline(__always)
    static func subtractWithBorrow(_ x: UInt64, _ y: UInt64, _ borrow: UInt64) -> (borrow: UInt64, difference: UInt64) {
        let wide = UInt128(x) &- UInt128(y) &- UInt128(borrow)
        return (UInt64(truncatingIfNeeded: wide >> 64) & 1, UInt64(truncatingIfNeeded: wide))
    }

    /// x + y + carry (carry 0 or 1) as a limb and the carry out (0 or 1), in 128 bits likewise.
    @inline(__always)
    static func addWithCarry(_ x: UInt64, _ y: UInt64, _ carry: UInt64) -> (carry: UInt64, sum: UInt64) {
        let wide = UInt128(x) &+ UInt128(y) &+ UInt128(carry)
        return (UInt64(truncatingIfNeeded: wide >> 64), UInt64(truncatingIfNeeded: wide))
    }

    /// Adds an unsigned big-endian integer into zeroed limbs (which must be enough to hold it).
    static func read<Bytes: Collection<UInt8>>(bigEndian bytes: Bytes, into limbs: UnsafeMutableBufferPointer<UInt64>) {
        var shift: UInt64 = 0
        var limb = 0
        for byte in bytes.reversed() {
            limbs[limb] |= UInt64(byte) << shift
            shift += 8
            if shift == 64 { shift = 0; limb += 1 }
        }
    }

    /// The limbs as `count` big-endian bytes: left-padded with zeros, and the high limbs cut off
    /// when they do not fit.
    static func bigEndianBytes(of limbs: UnsafeBufferPointer<UInt64>, count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        for (index, limb) in limbs.enumerated() {
            for byte in 0..<8 {
                let position = count - 1 - (index * 8 + byte)
                if position >= 0 { bytes[position] = UInt8(truncatingIfNeeded: limb >> (8 * UInt64(byte))) }
            }
        }
        return bytes
    }
}

/// **Fixed-size and constant-time, for secrets.** An unsigned 1024-bit integer: sixteen 64-bit
/// limbs, the least significant first. Just enough arithmetic for the Secret Service's
/// Diffie-Hellman: conversion from and to big-endian bytes, comparison, and (through
/// `MontgomeryModulus`) modular exponentiation. Comparison and subtraction do the same work for
/// every value, and `wipe()` clears a value's storage.
///
/// The limbs live inline in the value (a homogeneous tuple, laid out contiguously), so the type
/// never allocates. A tuple rather than `InlineArray` because the package still builds for
/// Apple platforms older than the ones that have `InlineArray`.
package struct UInt1024: Sendable {
    typealias Limbs = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                       UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)

    package static let limbCount = 16
    package static let byteCount = 128

    var limbs: Limbs = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

    package static let zero = UInt1024()
    package static let one: UInt1024 = { var one = UInt1024(); one.limbs.0 = 1; return one }()

    package init() {}

    /// An unsigned big-endian integer of at most 128 bytes (fewer bytes are leading zeros left
    /// out). More than 128 bytes is a programming error: callers check lengths first.
    package init<Bytes: Collection<UInt8>>(bigEndianBytes bytes: Bytes) {
        precondition(bytes.count <= Self.byteCount, "more than 1024 bits")
        withLimbs { LimbArithmetic.read(bigEndian: bytes, into: $0) }
    }

    /// A hexadecimal string of at most 256 digits (no prefix, either case), or nil.
    package init?(hexadecimal: String) {
        let digits = Array(hexadecimal.utf8)
        guard !digits.isEmpty, digits.count <= 2 * Self.byteCount else { return nil }
        var value = UInt1024()
        for (position, digit) in digits.reversed().enumerated() {
            let nibble: UInt64
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = UInt64(digit - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = UInt64(digit - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = UInt64(digit - UInt8(ascii: "A") + 10)
            default: return nil
            }
            value[position / 16] |= nibble << (4 * UInt64(position % 16))
        }
        self = value
    }

    /// Exactly 128 big-endian bytes, left-padded with zeros.
    package var bigEndianBytes: [UInt8] {
        withUnsafeBytes(of: limbs) { LimbArithmetic.bigEndianBytes(of: $0.bindMemory(to: UInt64.self), count: Self.byteCount) }
    }

    /// The limb at `index` (0 is the least significant).
    package subscript(index: Int) -> UInt64 {
        get {
            precondition((0..<Self.limbCount).contains(index))
            return withUnsafeBytes(of: limbs) { $0.load(fromByteOffset: 8 * index, as: UInt64.self) }
        }
        set {
            precondition((0..<Self.limbCount).contains(index))
            withUnsafeMutableBytes(of: &limbs) { $0.storeBytes(of: newValue, toByteOffset: 8 * index, as: UInt64.self) }
        }
    }

    /// The limbs as a buffer of sixteen, for loops that would rather not go through the tuple.
    package mutating func withLimbs<Result>(_ body: (UnsafeMutableBufferPointer<UInt64>) throws -> Result) rethrows -> Result {
        try withUnsafeMutableBytes(of: &limbs) { raw in
            try body(raw.bindMemory(to: UInt64.self))
        }
    }

    /// `self − other` modulo 2^1024, and whether it wrapped (that is, whether self < other). The
    /// borrow runs through every limb whatever their values.
    package func subtractingReportingBorrow(_ other: UInt1024) -> (difference: UInt1024, borrow: Bool) {
        var difference = UInt1024()
        var borrow: UInt64 = 0
        for limb in 0..<Self.limbCount {
            (borrow, difference[limb]) = LimbArithmetic.subtractWithBorrow(self[limb], other[limb], borrow)
        }
        return (difference, borrow != 0)
    }

    /// `self < other`, computed as the borrow out of `self − other`: the same work for every
    /// value, with no early exit on the first differing limb.
    package static func < (lhs: UInt1024, rhs: UInt1024) -> Bool {
        lhs.subtractingReportingBorrow(rhs).borrow
    }

    /// Overwrites the limbs in place, in a way the optimiser keeps. Copies the compiler made on
    /// its own (registers, spills) are beyond reach; this clears the storage we own.
    package mutating func wipe() {
        withUnsafeMutableBytes(of: &limbs) { if let base = $0.baseAddress { cks_secure_zero(base, $0.count) } }
    }
}

/// **Variable-size, for public values only.** A natural number of any size: 64-bit limbs, the
/// least significant first, no leading zero limbs. It serves RSA's public operation, whose inputs
/// are all public (the modulus, the public exponent, a signature or a ciphertext to be made), so
/// nothing here runs in constant time; it favours being short and evidently right. Never give
/// it a secret: use `UInt1024` and `MontgomeryModulus` for those.
package struct NaturalNumber: Comparable, Sendable {
    package private(set) var limbs: [UInt64]

    package init(limbs: [UInt64]) {
        var trimmed = limbs
        while trimmed.last == 0 { trimmed.removeLast() }
        self.limbs = trimmed
    }

    package init(bigEndian bytes: Data) {
        var limbs = [UInt64](repeating: 0, count: (bytes.count + 7) / 8)
        limbs.withUnsafeMutableBufferPointer { LimbArithmetic.read(bigEndian: bytes, into: $0) }
        self.init(limbs: limbs)
    }

    /// The number as `count` big-endian bytes (left-padded; the caller makes `count` enough).
    package func bigEndian(count: Int) -> Data {
        Data(limbs.withUnsafeBufferPointer { LimbArithmetic.bigEndianBytes(of: $0, count: count) })
    }

    package var bitCount: Int { limbs.isEmpty ? 0 : (limbs.count - 1) * 64 + (64 - limbs.last!.leadingZeroBitCount) }

    func bit(_ index: Int) -> Bool { (limbs[index / 64] >> UInt64(index % 64)) & 1 == 1 }

    package static func < (lhs: NaturalNumber, rhs: NaturalNumber) -> Bool {
        if lhs.limbs.count != rhs.limbs.count { return lhs.limbs.count < rhs.limbs.count }
        for index in stride(from: lhs.limbs.count - 1, through: 0, by: -1) where lhs.limbs[index] != rhs.limbs[index] {
            return lhs.limbs[index] < rhs.limbs[index]
        }
        return false
    }

    /// self^exponent mod modulus (self below the modulus), by left-to-right square and multiply.
    package func power(_ exponent: NaturalNumber, modulo modulus: NaturalNumber) -> NaturalNumber {
        if modulus.limbs == [1] { return NaturalNumber(limbs: []) }
        var result = NaturalNumber(limbs: [1])
        for index in stride(from: exponent.bitCount - 1, through: 0, by: -1) {
            result = result.multiplied(by: result, modulo: modulus)
            if exponent.bit(index) { result = result.multiplied(by: self, modulo: modulus) }
        }
        return result
    }

    /// self·b mod n for self, b < n: for each bit of self from the top, r = 2r (+ b), reduced
    /// below n (double, subtract, add).
    package func multiplied(by b: NaturalNumber, modulo n: NaturalNumber) -> NaturalNumber {
        let width = n.limbs.count + 1
        var r = [UInt64](repeating: 0, count: width)
        let bPadded = b.limbs + [UInt64](repeating: 0, count: width - b.limbs.count)
        let nPadded = n.limbs + [UInt64](repeating: 0, count: width - n.limbs.count)
        for index in stride(from: bitCount - 1, through: 0, by: -1) {
            Self.shiftLeftOne(&r)
            Self.reduceOnce(&r, nPadded)
            if bit(index) {
                var carry: UInt64 = 0
                for limb in r.indices { (carry, r[limb]) = LimbArithmetic.addWithCarry(r[limb], bPadded[limb], carry) }
                Self.reduceOnce(&r, nPadded)
            }
        }
        return NaturalNumber(limbs: r)
    }

    private static func shiftLeftOne(_ x: inout [UInt64]) {
        var carry: UInt64 = 0
        for index in x.indices {
            let next = x[index] >> 63
            x[index] = (x[index] << 1) | carry
            carry = next
        }
    }

    /// x − n when x ≥ n (x < 2n holds throughout, so once is enough).
    private static func reduceOnce(_ x: inout [UInt64], _ n: [UInt64]) {
        var greaterOrEqual = true
        for index in stride(from: x.count - 1, through: 0, by: -1) where x[index] != n[index] {
            greaterOrEqual = x[index] > n[index]
            break
        }
        guard greaterOrEqual else { return }
        var borrow: UInt64 = 0
        for index in x.indices { (borrow, x[index]) = LimbArithmetic.subtractWithBorrow(x[index], n[index], borrow) }
    }
}
