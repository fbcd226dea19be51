import Foundation
import SwiftASN1
import Testing
@testable import KeychainServices

/// Apple's normal form of names (`createNormalizedX501Name` in `SecCertificate.c`), on names
/// encoded by hand so that every case is visible in the bytes.
@Suite struct NameNormalizerTests {
    /// One attribute: SEQUENCE { OID, value } inside its own RDN SET.
    func rdn(_ oid: [UInt8], tag: UInt8, _ text: String) -> [UInt8] {
        let value = [tag, UInt8(text.utf8.count)] + Array(text.utf8)
        let pair = [0x30, UInt8(oid.count + value.count)] + oid + value
        return [0x31, UInt8(pair.count)] + pair
    }

    let country: [UInt8] = [0x06, 0x03, 0x55, 0x04, 0x06]
    let commonName: [UInt8] = [0x06, 0x03, 0x55, 0x04, 0x03]

    func name(_ rdns: [[UInt8]]) -> [UInt8] {
        let content = rdns.flatMap { $0 }
        return [0x30, UInt8(content.count)] + content
    }

    func normalized(_ bytes: [UInt8]) throws -> [UInt8] {
        [UInt8](try NameNormalizer.normalize(try DER.parse(bytes)))
    }

    @Test func printableStringsAreUpperCasedWithBlanksFolded() throws {
        let input = name([rdn(country, tag: 0x13, "  us \t x  "), rdn(commonName, tag: 0x0C, "Mixed  Case ")])
        let expected = rdn(country, tag: 0x13, "US X") + rdn(commonName, tag: 0x0C, "Mixed  Case ")
        #expect(try normalized(input) == expected, "only PrintableStrings change; the outer SEQUENCE is gone")
    }

    @Test func anAlreadyNormalNameIsItsContents() throws {
        let rdns = [rdn(country, tag: 0x13, "US"), rdn(commonName, tag: 0x13, "ROOT")]
        #expect(try normalized(name(rdns)) == rdns.flatMap { $0 })
    }

    @Test func emptyRDNsAreRefused() throws {
        #expect(throws: MalformedStructure.self) { try normalized([0x30, 0x02, 0x31, 0x00]) }
    }

    @Test func aWholeDERNameAsAnIssuerQueryIsNormalized() throws {
        let input = name([rdn(country, tag: 0x13, "us")])
        #expect(NameNormalizer.issuerQueryValue(Data(input)) == Data(rdn(country, tag: 0x13, "US")))
        #expect(NameNormalizer.issuerQueryValue(Data(rdn(country, tag: 0x13, "us"))) == nil, "already contents: left alone")
    }
}
