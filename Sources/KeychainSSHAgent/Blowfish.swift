/// Blowfish (Schneier, 1993) as bcrypt uses it: the state is the 18 subkeys P and the four
/// S-boxes of 256 words, and besides encrypting 64-bit blocks it can be re-keyed in place with
/// the "expensive key schedule" of Provos and Mazières ("A Future-Adaptable Password Scheme",
/// USENIX 1999): the key is XORed into P, then every word of P and the S-boxes is replaced, in
/// order, by successive encryptions, each block XORed with the next 8 bytes of a salt first
/// (`expand(key:salt:)`), or not (`expand(key:)`, bcrypt's `expand0state`).
///
/// Only what OpenBSD's bcrypt_pbkdf needs is here (``BcryptPBKDF``); the key files use AES.
struct Blowfish {
    /// P (18 words) and then S-boxes 0 to 3 (256 words each), as one array.
    private var state: [UInt32]

    private static let subkeyCount = 18
    private static let boxSize = 256
    private static let stateCount = subkeyCount + 4 * boxSize

    /// The initial state: the fraction of pi, P first, then the S-boxes in order.
    private static let initialState: [UInt32] = PiHexDigits.words(stateCount)

    /// The state before any key: pi's digits.
    init() { state = Self.initialState }

    /// The initial subkeys, for the tests that check pi's digits.
    static var initialSubkeys: ArraySlice<UInt32> { initialState[0..<subkeyCount] }

    /// Encrypts one block (its two 32-bit halves, big-endian words) in place.
    mutating func encrypt(_ left: inout UInt32, _ right: inout UInt32) {
        state.withUnsafeMutableBufferPointer { Self.encipher($0, &left, &right) }
    }

    /// The key schedule with a salt (bcrypt's `expandstate`): both are read as a cycling
    /// stream of big-endian words.
    mutating func expand(key: [UInt8], salt: [UInt8]) { expand(key: key, saltOrNil: salt) }

    /// The key schedule without a salt (bcrypt's `expand0state`).
    mutating func expand(key: [UInt8]) { expand(key: key, saltOrNil: nil) }

    private mutating func expand(key: [UInt8], saltOrNil salt: [UInt8]?) {
        state.withUnsafeMutableBufferPointer { words in
            var keyPosition = 0
            for index in 0..<Self.subkeyCount { words[index] ^= Self.nextWord(key, &keyPosition) }
            var saltPosition = 0
            var left: UInt32 = 0, right: UInt32 = 0
            var index = 0
            // The P words and then the S-boxes, continuing the same block chain and salt stream.
            while index < Self.stateCount {
                if let salt {
                    left ^= Self.nextWord(salt, &saltPosition)
                    right ^= Self.nextWord(salt, &saltPosition)
                }
                Self.encipher(words, &left, &right)
                words[index] = left
                words[index + 1] = right
                index += 2
            }
        }
    }

    /// The next four bytes of `bytes` as a big-endian word, starting over at the end.
    private static func nextWord(_ bytes: [UInt8], _ position: inout Int) -> UInt32 {
        var word: UInt32 = 0
        for _ in 0..<4 {
            word = word << 8 | UInt32(bytes[position])
            position = position + 1 == bytes.count ? 0 : position + 1
        }
        return word
    }

    /// Sixteen rounds of the Feistel network; the halves come out swapped back.
    @inline(__always)
    private static func encipher(_ words: UnsafeMutableBufferPointer<UInt32>, _ left: inout UInt32, _ right: inout UInt32) {
        var l = left ^ words[0]
        var r = right
        var round = 1
        while round <= 16 {
            r ^= mix(words, l) ^ words[round]
            l ^= mix(words, r) ^ words[round + 1]
            round += 2
        }
        left = r ^ words[17]
        right = l
    }

    /// Blowfish's F: the four S-boxes looked up by the four bytes of `x`.
    @inline(__always)
    private static func mix(_ words: UnsafeMutableBufferPointer<UInt32>, _ x: UInt32) -> UInt32 {
        let a = words[subkeyCount + Int(x >> 24)]
        let b = words[subkeyCount + boxSize + Int(x >> 16 & 0xFF)]
        let c = words[subkeyCount + 2 * boxSize + Int(x >> 8 & 0xFF)]
        let d = words[subkeyCount + 3 * boxSize + Int(x & 0xFF)]
        return ((a &+ b) ^ c) &+ d
    }
}
