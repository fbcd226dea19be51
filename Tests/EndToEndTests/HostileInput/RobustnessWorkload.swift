import Foundation
import KeychainServices
import KeychainStore

/// What the robustness worker does: sends malformed dictionaries to SecItemAdd,
/// SecItemCopyMatching, SecItemUpdate and SecItemDelete, and tallies what came back.
///
/// It runs as `fuzzIdentity`, which holds only its own access group, so the sentinel items the
/// parent stored under another group must survive even the dictionaries that happen to be valid
/// deletes and updates.
enum RobustnessWorkload {
    static let fuzzIdentity = ClientIdentity(accessGroups: ["fuzz.group"])
    static let sentinelIdentity = ClientIdentity(accessGroups: ["sentinel.group"])

    struct Summary {
        var dictionaries = 0
        var calls = 0
        /// Calls that failed but still wrote a result.
        var resultOnFailure = 0
        /// Statuses that are not errSec codes this module declares.
        var unknownStatuses: Set<OSStatus> = []
        var statuses: [OSStatus: Int] = [:]

        var line: String {
            let histogram = statuses.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: ",")
            let unknown = unknownStatuses.sorted().map(String.init).joined(separator: ",")
            return "summary dictionaries=\(dictionaries) calls=\(calls) resultOnFailure=\(resultOnFailure) unknown=[\(unknown)] statuses=\(histogram)"
        }

        mutating func record(_ status: OSStatus, wroteResult: Bool = false) {
            calls += 1
            statuses[status, default: 0] += 1
            if status != errSecSuccess && wroteResult { resultOnFailure += 1 }
            if status != errSecSuccess && _statusName(status) == nil { unknownStatuses.insert(status) }
        }
    }

    /// Sends `count` dictionaries from `seed`, writing the index of each before it is sent so that
    /// a crash can be traced to its dictionary.
    static func run(seed: UInt64, count: Int, progress: WorkerLog) -> Summary {
        var generator = MalformedQueries(seed: seed)
        var summary = Summary()
        for index in 0..<count {
            let query = generator.dictionary()
            let changes = generator.dictionary()
            progress.write("at \(index)")
            summary.dictionaries += 1

            var result: CFTypeRef?
            let added = SecItemAdd(query as CFDictionary, &result)
            summary.record(added, wroteResult: result != nil)

            result = nil
            let found = SecItemCopyMatching(query as CFDictionary, &result)
            summary.record(found, wroteResult: result != nil)
            // The nil-pointer form (an existence check) must not crash either.
            summary.record(SecItemCopyMatching(query as CFDictionary, nil))

            summary.record(SecItemUpdate(query as CFDictionary, changes as CFDictionary))
            summary.record(SecItemDelete(query as CFDictionary))
        }
        return summary
    }
}
