/// RC4, the stream cipher of the two RC4 PKCS#12 PBEs (RFC 7292 appendix C), which Apple's
/// importer reads. Only for reading such files: RC4's output is biased and it must protect
/// nothing new. Not constant-time (its state is indexed by key-dependent values).
package struct RC4: Sendable {
    private let key: [UInt8]

    /// A key of 1 to 256 bytes (PKCS#12 uses 5 or 16).
    package init(key: [UInt8]) throws(PrimitiveError) {
        guard (1...256).contains(key.count) else { throw .parameter("an RC4 key is 1 to 256 bytes") }
        self.key = key
    }

    /// `data` combined with the key stream from its start: encryption and decryption alike.
    package func apply(_ data: [UInt8]) -> [UInt8] {
        // The key-scheduling algorithm: a permutation of 0…255 shuffled by the key.
        var state = [UInt8](0...255)
        var j: UInt8 = 0
        for i in 0..<256 {
            j = j &+ state[i] &+ key[i % key.count]
            state.swapAt(i, Int(j))
        }
        // The generator: one key-stream byte per input byte.
        var i: UInt8 = 0
        j = 0
        return data.map { byte in
            i = i &+ 1
            j = j &+ state[Int(i)]
            state.swapAt(Int(i), Int(j))
            return byte ^ state[Int(state[Int(i)] &+ state[Int(j)])]
        }
    }
}
