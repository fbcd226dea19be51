import Testing
@testable import KeychainServices

#if !(os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
/// The cryptographic-services and trust range of SecBase.h.
@Suite struct ExtendedStatusTests {
    /// Generated into StatusCodeTable.swift from scripts/status-codes.tsv.
    static let table = extendedStatusTable

    @Test("Every code of the cryptographic-services and trust ranges has Apple's value")
    func values() {
        for (constant, value) in Self.table { #expect(constant == value) }
        #expect(Self.table.count == 314)
    }

    @Test("Every one of those codes has a message and a name")
    func messages() {
        for (constant, _) in Self.table {
            let message = SecCopyErrorMessageString(constant, nil) as String?
            #expect(message?.hasPrefix("Unknown error") == false, "\(constant)")
            #expect(_statusName(constant) != nil)
        }
    }
}
#endif
