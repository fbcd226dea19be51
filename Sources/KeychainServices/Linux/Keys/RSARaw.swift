#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Crypto
import _CryptoExtras
import Foundation

/// Unpadded RSA, which swift-crypto does not offer as such: the private operation (m^d mod n) is
/// its blind-signing primitive (BoringSSL's `RSA_sign_raw` without padding, with its blinding);
/// the public operation (s^e mod n) is computed here, on public values only, by
/// ``PublicExponentiation``. Over these sit the paddings of Apple's "digest" and "raw" RSA
/// algorithms (``RSAPadding``).
enum RSARaw {
    /// m^d mod n for a block as long as the modulus (shorter input is left-padded with zeros);
    /// errSecParam when the value is not below the modulus.
    static func privateOperation(_ key: _RSA.Signing.PrivateKey, _ block: Data) throws(KeyError) -> Data {
        let size = (key.keySizeInBits + 7) / 8
        guard block.count <= size else { throw .parameter("the input is longer than the RSA modulus") }
        let padded = Data(count: size - block.count) + block
        do {
            let raw = try _RSA.BlindSigning.PrivateKey(unsafeDERRepresentation: key.derRepresentation)
            return try raw.blindSignature(for: padded).rawRepresentation
        } catch {
            throw KeyError(errSecParam, "the input is not below the RSA modulus")
        }
    }

    /// s^e mod n, as long as the modulus; errSecParam when the value is not below the modulus.
    static func publicOperation(_ key: _RSA.Signing.PublicKey, _ block: Data) throws(KeyError) -> Data {
        let primitives: _RSA.Signing.PublicKey.Primitives
        do { primitives = try key.getKeyPrimitives() } catch { throw KeyError(errSecDecode, "the RSA public key cannot be read") }
        let modulus = PublicExponentiation.Natural(bigEndian: primitives.modulus)
        let size = (key.keySizeInBits + 7) / 8
        guard block.count <= size else { throw .parameter("the input is longer than the RSA modulus") }
        let value = PublicExponentiation.Natural(bigEndian: block)
        guard value < modulus else { throw .parameter("the input is not below the RSA modulus") }
        let result = PublicExponentiation.power(value, PublicExponentiation.Natural(bigEndian: primitives.publicExponent), modulo: modulus)
        return result.bigEndian(count: size)
    }
}

/// Modular exponentiation of natural numbers, enough for RSA's public operation. Every input is
/// public (the modulus, the public exponent, a signature or a ciphertext to be made), so nothing
/// here needs to run in constant time; it favours being short and evidently right: products are
/// reduced bit by bit (double, subtract, add).
enum PublicExponentiation {
    /// A natural number, 64-bit limbs, least significant first, no leading zero limbs.
    struct Natural: Comparable {
        var limbs: [UInt64]

        init(limbs: [UInt64]) {
            var trimmed = limbs
            while trimmed.last == 0 { trimmed.removeLast() }
            self.limbs = trimmed
        }

        init(bigEndian bytes: Data) {
            var limbs: [UInt64] = []
            var current: UInt64 = 0, shift: UInt64 = 0
            for byte in bytes.reversed() {
                current |= UInt64(byte) << shift
                shift += 8
                if shift == 64 { limbs.append(current); current = 0; shift = 0 }
            }
            if shift > 0 { limbs.append(current) }
            self.init(limbs: limbs)
        }

        func bigEndian(count: Int) -> Data {
            var bytes = [UInt8](repeating: 0, count: count)
            for (index, limb) in limbs.enumerated() {
                for byte in 0..<8 {
                    let position = count - 1 - (index * 8 + byte)
                    if position >= 0 { bytes[position] = UInt8(truncatingIfNeeded: limb >> (8 * UInt64(byte))) }
                }
            }
            return Data(bytes)
        }

        var bitCount: Int { limbs.isEmpty ? 0 : (limbs.count - 1) * 64 + (64 - limbs.last!.leadingZeroBitCount) }

        func bit(_ index: Int) -> Bool { (limbs[index / 64] >> UInt64(index % 64)) & 1 == 1 }

        static func < (lhs: Natural, rhs: Natural) -> Bool {
            if lhs.limbs.count != rhs.limbs.count { return lhs.limbs.count < rhs.limbs.count }
            for index in stride(from: lhs.limbs.count - 1, through: 0, by: -1) where lhs.limbs[index] != rhs.limbs[index] {
                return lhs.limbs[index] < rhs.limbs[index]
            }
            return false
        }
    }

    /// base^exponent mod modulus (base below the modulus), by left-to-right square and multiply.
    static func power(_ base: Natural, _ exponent: Natural, modulo modulus: Natural) -> Natural {
        var result = Natural(limbs: [1])
        if modulus.limbs == [1] { return Natural(limbs: []) }
        for index in stride(from: exponent.bitCount - 1, through: 0, by: -1) {
            result = multiply(result, result, modulo: modulus)
            if exponent.bit(index) { result = multiply(result, base, modulo: modulus) }
        }
        return result
    }

    /// a·b mod n for a, b < n: for each bit of a from the top, r = 2r (+ b), reduced below n.
    static func multiply(_ a: Natural, _ b: Natural, modulo n: Natural) -> Natural {
        let width = n.limbs.count + 1
        var r = [UInt64](repeating: 0, count: width)
        let bPadded = b.limbs + [UInt64](repeating: 0, count: width - b.limbs.count)
        let nPadded = n.limbs + [UInt64](repeating: 0, count: width - n.limbs.count)
        for index in stride(from: a.bitCount - 1, through: 0, by: -1) {
            shiftLeftOne(&r)
            reduceOnce(&r, nPadded)
            if a.bit(index) {
                add(&r, bPadded)
                reduceOnce(&r, nPadded)
            }
        }
        return Natural(limbs: r)
    }

    private static func shiftLeftOne(_ x: inout [UInt64]) {
        var carry: UInt64 = 0
        for index in x.indices {
            let next = x[index] >> 63
            x[index] = (x[index] << 1) | carry
            carry = next
        }
    }

    private static func add(_ x: inout [UInt64], _ y: [UInt64]) {
        var carry: UInt64 = 0
        for index in x.indices {
            let (s1, o1) = x[index].addingReportingOverflow(y[index])
            let (s2, o2) = s1.addingReportingOverflow(carry)
            x[index] = s2
            carry = (o1 ? 1 : 0) + (o2 ? 1 : 0)
        }
    }

    /// x - n when x ≥ n (x < 2n holds throughout, so once is enough).
    private static func reduceOnce(_ x: inout [UInt64], _ n: [UInt64]) {
        var greaterOrEqual = true
        for index in stride(from: x.count - 1, through: 0, by: -1) where x[index] != n[index] {
            greaterOrEqual = x[index] > n[index]
            break
        }
        guard greaterOrEqual else { return }
        var borrow: UInt64 = 0
        for index in x.indices {
            let (d1, o1) = x[index].subtractingReportingOverflow(n[index])
            let (d2, o2) = d1.subtractingReportingOverflow(borrow)
            x[index] = d2
            borrow = (o1 ? 1 : 0) + (o2 ? 1 : 0)
        }
    }
}
#endif
