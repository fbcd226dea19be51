/// DES (FIPS 46-3), for triple DES only: see ``TripleDES``. Written for clarity, bit by bit
/// through the standard's tables, not for speed: it decrypts a PKCS#12 file's few kilobytes.
package struct DES: LegacyBlockCipher {
    /// The sixteen 48-bit round keys, in encryption order.
    private let roundKeys: [UInt64]

    /// A DES key of 8 bytes; the low bit of each byte (its parity bit) is ignored, as the
    /// standard's first key permutation drops it.
    package init(key: [UInt8]) throws(PrimitiveError) {
        guard key.count == 8 else { throw .parameter("a DES key is 8 bytes") }
        roundKeys = Self.schedule(BlockBytes.word(key, at: 0))
    }

    package func encryptBlock(_ block: UInt64) -> UInt64 { Self.crypt(block, keys: roundKeys) }
    package func decryptBlock(_ block: UInt64) -> UInt64 { Self.crypt(block, keys: roundKeys.reversed()) }

    /// The enciphering computation (FIPS 46-3, figure 1); deciphering is the same with the round
    /// keys in reverse order.
    private static func crypt(_ block: UInt64, keys: [UInt64]) -> UInt64 {
        let permuted = permute(block, width: 64, by: initialPermutation)
        var left = UInt32(truncatingIfNeeded: permuted >> 32)
        var right = UInt32(truncatingIfNeeded: permuted)
        for key in keys {
            (left, right) = (right, left ^ cipherFunction(right, key: key))
        }
        // The preoutput is R16 L16: the halves of the last round are not swapped back.
        return permute(UInt64(right) << 32 | UInt64(left), width: 64, by: finalPermutation)
    }

    /// f(R, K): expand R to 48 bits, add the round key, substitute through the eight S-boxes,
    /// permute with P.
    private static func cipherFunction(_ right: UInt32, key: UInt64) -> UInt32 {
        let mixed = permute(UInt64(right), width: 32, by: expansion) ^ key
        var substituted: UInt32 = 0
        for box in 0..<8 {
            let six = Int((mixed >> UInt64(42 - 6 * box)) & 0x3F)
            // The outer bits choose the row, the inner four the column.
            let row = (six >> 4) & 0b10 | six & 1
            let column = (six >> 1) & 0xF
            substituted = substituted << 4 | UInt32(sBoxes[box][row * 16 + column])
        }
        return UInt32(truncatingIfNeeded: permute(UInt64(substituted), width: 32, by: permutationP))
    }

    /// The key schedule (FIPS 46-3, figure 3): PC-1, then per round a left rotation of both
    /// 28-bit halves and PC-2.
    private static func schedule(_ key: UInt64) -> [UInt64] {
        let selected = permute(key, width: 64, by: permutedChoice1)
        var c = UInt32(truncatingIfNeeded: selected >> 28) & 0x0FFF_FFFF
        var d = UInt32(truncatingIfNeeded: selected) & 0x0FFF_FFFF
        func rotate(_ half: UInt32, _ count: Int) -> UInt32 {
            (half << UInt32(count) | half >> UInt32(28 - count)) & 0x0FFF_FFFF
        }
        return rotations.map { count in
            c = rotate(c, count)
            d = rotate(d, count)
            return permute(UInt64(c) << 28 | UInt64(d), width: 56, by: permutedChoice2)
        }
    }

    /// The standard's permutations: output bit i (from the left) is input bit table[i], the
    /// input's bits numbered from 1 at its most significant end.
    private static func permute(_ input: UInt64, width: Int, by table: [UInt8]) -> UInt64 {
        table.reduce(UInt64(0)) { output, position in
            output << 1 | (input >> UInt64(width - Int(position))) & 1
        }
    }

    private static let initialPermutation: [UInt8] = [
        58, 50, 42, 34, 26, 18, 10, 2, 60, 52, 44, 36, 28, 20, 12, 4,
        62, 54, 46, 38, 30, 22, 14, 6, 64, 56, 48, 40, 32, 24, 16, 8,
        57, 49, 41, 33, 25, 17, 9, 1, 59, 51, 43, 35, 27, 19, 11, 3,
        61, 53, 45, 37, 29, 21, 13, 5, 63, 55, 47, 39, 31, 23, 15, 7,
    ]

    /// IP⁻¹, computed as the inverse of IP rather than typed a second time.
    private static let finalPermutation: [UInt8] = {
        var inverse = [UInt8](repeating: 0, count: 64)
        for (index, position) in initialPermutation.enumerated() { inverse[Int(position) - 1] = UInt8(index + 1) }
        return inverse
    }()

    /// E: each of the eight 4-bit groups of R with the bit either side of it, wrapping around.
    private static let expansion: [UInt8] = (0..<8).flatMap { (group: Int) -> [UInt8] in
        (-1...4).map { (offset: Int) -> UInt8 in UInt8((4 * group + offset + 32) % 32 + 1) }
    }

    private static let permutationP: [UInt8] = [
        16, 7, 20, 21, 29, 12, 28, 17, 1, 15, 23, 26, 5, 18, 31, 10,
        2, 8, 24, 14, 32, 27, 3, 9, 19, 13, 30, 6, 22, 11, 4, 25,
    ]

    private static let permutedChoice1: [UInt8] = [
        57, 49, 41, 33, 25, 17, 9, 1, 58, 50, 42, 34, 26, 18,
        10, 2, 59, 51, 43, 35, 27, 19, 11, 3, 60, 52, 44, 36,
        63, 55, 47, 39, 31, 23, 15, 7, 62, 54, 46, 38, 30, 22,
        14, 6, 61, 53, 45, 37, 29, 21, 13, 5, 28, 20, 12, 4,
    ]

    private static let permutedChoice2: [UInt8] = [
        14, 17, 11, 24, 1, 5, 3, 28, 15, 6, 21, 10,
        23, 19, 12, 4, 26, 8, 16, 7, 27, 20, 13, 2,
        41, 52, 31, 37, 47, 55, 30, 40, 51, 45, 33, 48,
        44, 49, 39, 56, 34, 53, 46, 42, 50, 36, 29, 32,
    ]

    /// How far both key halves rotate before each round.
    private static let rotations = [1, 1, 2, 2, 2, 2, 2, 2, 1, 2, 2, 2, 2, 2, 2, 1]

    /// S1 … S8, each four rows of sixteen.
    package static let sBoxes: [[UInt8]] = [
        [14, 4, 13, 1, 2, 15, 11, 8, 3, 10, 6, 12, 5, 9, 0, 7,
         0, 15, 7, 4, 14, 2, 13, 1, 10, 6, 12, 11, 9, 5, 3, 8,
         4, 1, 14, 8, 13, 6, 2, 11, 15, 12, 9, 7, 3, 10, 5, 0,
         15, 12, 8, 2, 4, 9, 1, 7, 5, 11, 3, 14, 10, 0, 6, 13],
        [15, 1, 8, 14, 6, 11, 3, 4, 9, 7, 2, 13, 12, 0, 5, 10,
         3, 13, 4, 7, 15, 2, 8, 14, 12, 0, 1, 10, 6, 9, 11, 5,
         0, 14, 7, 11, 10, 4, 13, 1, 5, 8, 12, 6, 9, 3, 2, 15,
         13, 8, 10, 1, 3, 15, 4, 2, 11, 6, 7, 12, 0, 5, 14, 9],
        [10, 0, 9, 14, 6, 3, 15, 5, 1, 13, 12, 7, 11, 4, 2, 8,
         13, 7, 0, 9, 3, 4, 6, 10, 2, 8, 5, 14, 12, 11, 15, 1,
         13, 6, 4, 9, 8, 15, 3, 0, 11, 1, 2, 12, 5, 10, 14, 7,
         1, 10, 13, 0, 6, 9, 8, 7, 4, 15, 14, 3, 11, 5, 2, 12],
        [7, 13, 14, 3, 0, 6, 9, 10, 1, 2, 8, 5, 11, 12, 4, 15,
         13, 8, 11, 5, 6, 15, 0, 3, 4, 7, 2, 12, 1, 10, 14, 9,
         10, 6, 9, 0, 12, 11, 7, 13, 15, 1, 3, 14, 5, 2, 8, 4,
         3, 15, 0, 6, 10, 1, 13, 8, 9, 4, 5, 11, 12, 7, 2, 14],
        [2, 12, 4, 1, 7, 10, 11, 6, 8, 5, 3, 15, 13, 0, 14, 9,
         14, 11, 2, 12, 4, 7, 13, 1, 5, 0, 15, 10, 3, 9, 8, 6,
         4, 2, 1, 11, 10, 13, 7, 8, 15, 9, 12, 5, 6, 3, 0, 14,
         11, 8, 12, 7, 1, 14, 2, 13, 6, 15, 0, 9, 10, 4, 5, 3],
        [12, 1, 10, 15, 9, 2, 6, 8, 0, 13, 3, 4, 14, 7, 5, 11,
         10, 15, 4, 2, 7, 12, 9, 5, 6, 1, 13, 14, 0, 11, 3, 8,
         9, 14, 15, 5, 2, 8, 12, 3, 7, 0, 4, 10, 1, 13, 11, 6,
         4, 3, 2, 12, 9, 5, 15, 10, 11, 14, 1, 7, 6, 0, 8, 13],
        [4, 11, 2, 14, 15, 0, 8, 13, 3, 12, 9, 7, 5, 10, 6, 1,
         13, 0, 11, 7, 4, 9, 1, 10, 14, 3, 5, 12, 2, 15, 8, 6,
         1, 4, 11, 13, 12, 3, 7, 14, 10, 15, 6, 8, 0, 5, 9, 2,
         6, 11, 13, 8, 1, 4, 10, 7, 9, 5, 0, 15, 14, 2, 3, 12],
        [13, 2, 8, 4, 6, 15, 11, 1, 10, 9, 3, 14, 5, 0, 12, 7,
         1, 15, 13, 8, 10, 3, 7, 4, 12, 5, 6, 11, 0, 14, 9, 2,
         7, 11, 4, 1, 9, 12, 14, 2, 0, 6, 10, 13, 15, 3, 5, 8,
         2, 1, 14, 7, 4, 10, 8, 13, 15, 12, 9, 0, 3, 5, 6, 11],
    ]
}

/// Triple DES in its encrypt-decrypt-encrypt form (FIPS 46-3 annex / NIST SP 800-67): three
/// independent keys (24 bytes), or two (16 bytes, the third key being the first).
package struct TripleDES: LegacyBlockCipher {
    private let first: DES, second: DES, third: DES

    package init(key: [UInt8]) throws(PrimitiveError) {
        guard key.count == 24 || key.count == 16 else { throw .parameter("a triple-DES key is 16 or 24 bytes") }
        first = try DES(key: Array(key[0..<8]))
        second = try DES(key: Array(key[8..<16]))
        third = key.count == 24 ? try DES(key: Array(key[16..<24])) : first
    }

    package func encryptBlock(_ block: UInt64) -> UInt64 {
        third.encryptBlock(second.decryptBlock(first.encryptBlock(block)))
    }

    package func decryptBlock(_ block: UInt64) -> UInt64 {
        first.decryptBlock(second.encryptBlock(third.decryptBlock(block)))
    }
}
