import Foundation
import KeychainServices

/// `keychain-bench result-cast`: what a caller's `result as? Data` costs on the object
/// `SecItemCopyMatching` hands out, beside the same cast on Foundation's own `NSData` with the
/// same bytes, for secrets of several sizes, in rounds whose order alternates.
enum ResultCast {
    struct Row: Codable {
        var bytes: Int
        /// Medians of the rounds' medians, µs per cast.
        var foundation_nsdata_us: Double
        var api_result_us: Double
        var ratio: Double
    }

    static func run(directory: String, sizes: [Int], operations: Int, rounds: Int) throws -> [Row] {
        let system = try SecItemSystem(path: directory + "/cast.keychain-db", deviceKeyPath: directory + "/device-key")
        return try sizes.map { size in
            let secret = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            let account = "cast-\(size)"
            try system.add(account: account, secret: secret)
            let fromAPI = try system.copyData(account: account)
            let foundation: AnyObject = NSData(bytes: secret, length: size)
            let inputs = Array(repeating: 0, count: operations)
            var plain: [Double] = [], ours: [Double] = []
            for round in 0..<rounds {
                for object in round % 2 == 0 ? [foundation, fromAPI] : [fromAPI, foundation] {
                    let summary = try timeEach(inputs) { _ in
                        guard let data = object as? Data, data.count == size else { throw BenchFailure("result-cast: the cast lost bytes") }
                    }
                    if object === foundation { plain.append(summary.median_us) } else { ours.append(summary.median_us) }
                }
            }
            progress("result-cast: \(size) bytes: Foundation's NSData \(median(plain)) µs, the API's result \(median(ours)) µs")
            return Row(bytes: size, foundation_nsdata_us: median(plain), api_result_us: median(ours),
                       ratio: (median(plain) / median(ours) * 100).rounded() / 100)
        }
    }
}
