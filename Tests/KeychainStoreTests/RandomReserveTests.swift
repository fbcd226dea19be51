#if DEBUG
import Foundation
@testable import KeychainStore
import Testing

/// A write draws the random bytes of its keys, nonces and row reference together, through the
/// fault seam (which counts every draw), and never hands out the same bytes twice.
@Suite("Random bytes of a write are drawn once")
struct RandomReserveTests {
    /// How many times `body` drew from the system's random source.
    private func draws(_ body: () throws -> Void) rethrows -> Int {
        let plan = FaultPlan()
        try FaultInjection.$plan.withValue(plan) { try body() }
        return plan.calls(.random)
    }

    @Test("An add, an update of the secret and an update of an attribute each draw once")
    func oneDrawPerWrite() throws {
        let fixture = try ReliabilityFixture()
        defer { fixture.remove() }
        let file = try fixture.open()
        defer { file.forgetSharedUnlockState() }
        let query = ItemQuery(itemClass: .genericPassword, filters: ["acct": .string("account-1")])

        // Three uses each: the row's reference, then the secret's and the attributes' item keys and nonces.
        #expect(try draws {
            _ = try file.add(.genericPassword, attributes: ["acct": .string("drawn"), "pdmn": .string("dk")],
                             secret: Data("s".utf8), identity: .unconfigured)
        } == 1)
        // A fresh key for the secret and a nonce for the attributes, which keep theirs.
        #expect(try draws { try file.update(query, changes: [:], secret: Data("new".utf8), identity: .unconfigured) } == 1)
        #expect(try draws { try file.update(query, changes: ["labl": .string("other")], secret: nil, identity: .unconfigured) } == 1)
        // Two items in one transaction: more than one chunk, and every item still opens.
        let pair = [NewItem(.genericPassword, attributes: ["acct": .string("pair-a"), "pdmn": .string("dk")], secret: Data("a".utf8)),
                    NewItem(.genericPassword, attributes: ["acct": .string("pair-b"), "pdmn": .string("dk")], secret: Data("b".utf8))]
        #expect(try draws { _ = try file.add(pair, identity: .unconfigured) } == 2)
        for (account, secret) in [("drawn", "s"), ("account-1", "new"), ("pair-a", "a"), ("pair-b", "b")] {
            let found = try file.find(ItemQuery(itemClass: .genericPassword, filters: ["acct": .string(account)]),
                                      identity: .unconfigured, limit: 1, includeSecrets: true)
            #expect(found.first?.secret == Data(secret.utf8), "\(account)")
        }
    }

    @Test("A reserve hands out each byte once and draws again only when it runs short")
    func handsOutEachByteOnce() throws {
        let reserve = RandomReserve()
        var taken: [[UInt8]] = []
        let first = try draws {
            for count in [8, 56, 56] { taken.append(try reserve.take(count)) }
        }
        #expect(first == 1)
        #expect(taken.map(\.count) == [8, 56, 56])
        // Pieces of one draw that overlapped would repeat bytes at their shared offset; random
        // pieces that do not are equal with probability 2^-64 for the shortest.
        #expect(taken[0] != Array(taken[1].prefix(8)) && taken[1] != taken[2])
        #expect(try draws { taken.append(try reserve.take(56)) } == 1, "a chunk of 120 leaves no room for another 56 bytes")
        var large: [UInt8] = []
        #expect(try draws { large = try reserve.take(300) } == 1, "a take larger than a chunk is drawn whole")
        #expect(large.count == 300)
    }
}
#endif
