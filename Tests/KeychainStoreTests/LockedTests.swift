import Foundation
import Testing
import KeychainStore

/// The engine's lock (``Locked``): what the keychain's thread safety stands on. The sanitizer run
/// (scripts/sanitizers.sh thread) checks the same property on every other test.
@Suite struct LockedTests {
    @Test("Read-modify-write from 8 threads under the lock loses no update")
    func mutualExclusion() {
        let counter = Locked(0)
        let threads = 8, rounds = 20_000
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<rounds {
                counter.withLock { value in
                    // Read, give another thread the chance to run, then write: without mutual
                    // exclusion updates made in between would be lost.
                    let read = value
                    if read % 64 == 0 { sched_yield() }
                    value = read + 1
                }
            }
        }
        #expect(counter.withLock { $0 } == threads * rounds)
    }

    struct Refused: Error {}

    @Test("A body that throws releases the lock and leaves what it wrote before throwing")
    func throwingBodyReleases() {
        let list = Locked([Int]())
        #expect(throws: Refused.self) {
            try list.withLock { (value: inout [Int]) throws(Refused) in
                value.append(1)
                throw Refused()
            }
        }
        // A lock left held would block here for ever (the test run's timeout would report it).
        list.withLock { $0.append(2) }
        #expect(list.withLock { $0 } == [1, 2])
    }
}
