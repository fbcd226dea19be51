import Foundation
import Testing
import KeychainDBus

/// `hasSignature` (the encoder's allocation-free element check) says exactly what comparing
/// `signature` strings says, for every value against every signature of a varied set,
/// invalid values and near misses included.
@Suite struct SignatureMatchTests {
    static let values: [DBusValue] = [
        .byte(1), .boolean(true), .int16(1), .uint16(1), .int32(1), .uint32(1), .int64(1), .uint64(1), .double(1),
        .string("s"), .objectPath("/o"), .signature("g"), .bytes(Data([1])), .variant(.string("v")),
        .array(elementSignature: "s", []), .array(elementSignature: "{sv}", []), .array(elementSignature: "", []),
        .array(elementSignature: "{s", []),
        .dictEntry(.string("k"), .variant(.int32(1))), .dictEntry(.objectPath("/o"), .structure([.objectPath("/s"), .bytes(Data()), .bytes(Data()), .string("t")])),
        .structure([]), .structure([.string("a"), .array(elementSignature: "y", [])]),
        .structure([.structure([.int32(1)]), .bytes(Data())]),
    ]

    static let signatures: [String] = values.map(\.signature) + [
        "", "a", "ay", "aay", "(", ")", "()", "(s", "(say)", "(sayy)", "{sv", "{sv}}", "{o(oayays)}", "{o(oayay)}",
        "a{sv}", "a{s", "ss", "yy", "(i)ay", "((i)ay)", "é", "s\u{0}",
    ]

    @Test func agreesWithComparingSignatureStrings() {
        for value in Self.values {
            for expected in Self.signatures {
                #expect(value.hasSignature(expected) == (value.signature == expected),
                        "\(value.signature.debugDescription) against \(expected.debugDescription)")
            }
        }
    }
}
