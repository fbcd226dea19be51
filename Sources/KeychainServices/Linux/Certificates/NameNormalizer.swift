#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Foundation
import SwiftASN1

/// Apple's normal form of an X.501 Name, the one stored as `issr` and `subj` and compared when
/// issuers are matched (`createNormalizedX501Name` in `SecCertificate.c`): the Name's contents
/// without its outer SEQUENCE header, each PrintableString value upper-cased (ASCII) with runs of
/// blanks (space, tab) collapsed to one space and none at either end, lengths re-encoded; every
/// other value is copied unchanged. Empty RDNs and attribute pairs that are not (OID, value) are
/// refused, as Apple refuses them.
enum NameNormalizer {
    static func normalize(_ name: ASN1Node) throws(MalformedStructure) -> Data {
        var serializer = DER.Serializer()
        do {
            for rdn in try name.children(.sequence) {
                let pairs = try rdn.children(.set)
                guard !pairs.isEmpty else { throw MalformedStructure() }
                try serializer.appendConstructedNode(identifier: .set) { set in
                    for pair in pairs {
                        let parts = try pair.children(.sequence)
                        guard parts.count == 2, parts[0].identifier == .objectIdentifier else { throw MalformedStructure() }
                        set.appendConstructedNode(identifier: .sequence) { sequence in
                            sequence.serializeRawBytes(parts[0].encodedBytes)
                            if parts[1].identifier == .printableString, case .primitive(let text) = parts[1].content {
                                sequence.appendPrimitiveNode(identifier: .printableString) { $0.append(contentsOf: folded(text)) }
                            } else {
                                sequence.serializeRawBytes(parts[1].encodedBytes)
                            }
                        }
                    }
                }
            }
        } catch {
            throw MalformedStructure()
        }
        return Data(serializer.serializedBytes)
    }

    /// Upper case for ASCII letters, one space for each run of blanks, none leading or trailing.
    static func folded(_ text: ArraySlice<UInt8>) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(text.count)
        var lastWasBlank = false
        for byte in text {
            if byte == 0x20 || byte == 0x09 {
                if !lastWasBlank && !result.isEmpty { result.append(0x20) }
                lastWasBlank = true
            } else {
                lastWasBlank = false
                result.append((0x61...0x7A).contains(byte) ? byte - 0x20 : byte)
            }
        }
        if lastWasBlank, result.last == 0x20 { result.removeLast() }
        return result
    }
}
#endif
