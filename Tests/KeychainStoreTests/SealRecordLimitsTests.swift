import Foundation
@testable import KeychainStore
import KeychainTestSupport
import Testing

/// A seal record whose fields do not fit its length prefixes is refused with errSecParam, rather
/// than trapping in the encoder, and leaves the keychain's seals as they were.
@Suite struct SealRecordLimitsTests {
    func record(details: [String: String]) -> SealRecord {
        SealRecord(name: "big", method: "test", created: Date(), passwordParameters: Data(), keyCheck: Data(count: 16),
                   details: details, sealed: Data([1]))
    }

    @Test("A detail longer than 65535 bytes, or more than 255 details: errSecParam, nothing stored")
    func oversizedFieldsAreRefused() throws {
        let keychain = try TestKeychain()
        try keychain.file.setPassword("pw", currentPassword: nil)
        defer { keychain.file.forgetSharedUnlockState() }
        let longPath = String(repeating: "a/", count: 40_000) + "x.cred"
        let many = Dictionary(uniqueKeysWithValues: (0..<300).map { ("k\($0)", "v") })
        for bad in [record(details: ["credential-file": longPath]), record(details: many)] {
            do {
                try keychain.file.addSeal(bad, replacing: false)
                Issue.record("an oversized seal record was stored")
            } catch {
                #expect(error.status == SecStatus.param, "\(error)")
            }
        }
        #expect(try keychain.file.seals().isEmpty)
        // The largest that fits is still stored and reads back whole.
        let fitting = record(details: ["credential-file": String(repeating: "b", count: Int(UInt16.max))])
        try keychain.file.addSeal(fitting, replacing: false)
        #expect(try keychain.file.seals().first?.record.details == fitting.details)
    }
}
