import Crypto
import Foundation

/// One sealed part of a row as the keychain file lays it out, for the benchmarks that redo the
/// engine's sealing with swift-crypto (its own sealer is internal to it): a format byte, the
/// part's item key sealed under the class key (60 bytes), then the content sealed under the item
/// key. Authenticated data has the lengths the keychain uses (the text differs, the work does not).
enum SealedPart {
    static let format: UInt8 = 3
    static let keyLength = 32, nonceLength = 12
    static let wrappedKeyLength = 60, boxOverhead = 28
    /// Bytes a sealed part adds to its content.
    static let overhead = 1 + wrappedKeyLength + boxOverhead
    /// Random bytes one seal takes: the item key and the two nonces.
    static let randomLength = keyLength + 2 * nonceLength

    static func wrapAAD(_ part: String, _ reference: [UInt8]) -> [UInt8] { Array("swift-keychain/wrap/\(part)/genp/6/".utf8) + reference }
    static func contentAAD(_ part: String, _ reference: [UInt8]) -> [UInt8] { Array("swift-keychain/bound/\(part)/genp/".utf8) + reference }

    /// `content` sealed under a fresh item key, itself sealed under `classKey`; `random` holds the
    /// key and the two nonces (``randomLength`` bytes), drawn by the caller as the engine draws them.
    static func seal(_ content: Data, part: String, reference: [UInt8], classKey: SymmetricKey,
                     random: ArraySlice<UInt8>) throws -> [UInt8] {
        guard random.count == randomLength else { throw BenchFailure("a seal needs \(randomLength) random bytes") }
        let start = random.startIndex, keyEnd = start + keyLength
        let itemKey = SymmetricKey(data: random[start..<keyEnd])
        let wrapped = try AES.GCM.seal(random[start..<keyEnd], using: classKey,
                                       nonce: AES.GCM.Nonce(data: random[keyEnd..<keyEnd + nonceLength]),
                                       authenticating: wrapAAD(part, reference)).combined!
        let sealed = try AES.GCM.seal(content, using: itemKey, nonce: AES.GCM.Nonce(data: random[(keyEnd + nonceLength)...]),
                                      authenticating: contentAAD(part, reference)).combined!
        var blob: [UInt8] = [format]
        blob.reserveCapacity(1 + wrapped.count + sealed.count)
        blob += wrapped
        blob += sealed
        return blob
    }
}
