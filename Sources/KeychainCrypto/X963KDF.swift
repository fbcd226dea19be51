package import Foundation

/// The ANSI X9.63 key derivation (SEC 1 §3.6.1): the output is
/// `H(Z ‖ counter₁ ‖ sharedInfo) ‖ H(Z ‖ counter₂ ‖ sharedInfo) ‖ …` truncated, with 32-bit
/// big-endian counters from 1. swift-crypto has it on `SharedSecret`; this form works on the raw
/// secret bytes, which the ECIES and ECDH-with-KDF algorithms start from.
package enum X963KDF {
    package static func derive(secret: Data, hash: HashName, sharedInfo: Data, byteCount: Int) -> Data {
        var output = Data()
        output.reserveCapacity(byteCount + hash.byteCount)
        var counter: UInt32 = 1
        while output.count < byteCount {
            var block = secret
            withUnsafeBytes(of: counter.bigEndian) { block.append(contentsOf: $0) }
            block.append(sharedInfo)
            output.append(hash.hash(block))
            counter += 1
        }
        return output.prefix(byteCount)
    }
}
