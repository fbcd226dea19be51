#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import SwiftASN1

/// Small building blocks for the DER the exporters write (PKCS#8, PKCS#12, PKCS#7), over
/// swift-asn1's serializer: each returns the complete encoding of one element, so structures
/// are assembled from already-encoded parts.
enum DERWriting {
    /// Writes one element with `body` and returns its bytes.
    static func encode(_ body: (inout DER.Serializer) throws -> Void) rethrows -> [UInt8] {
        var serializer = DER.Serializer()
        try body(&serializer)
        return serializer.serializedBytes
    }

    /// A constructed element (SEQUENCE, SET, a context tag) around already-encoded children.
    static func constructed(_ identifier: ASN1Identifier, _ children: [[UInt8]]) -> [UInt8] {
        encode { serializer in
            serializer.appendConstructedNode(identifier: identifier) { inner in
                for child in children { inner.serializeRawBytes(child) }
            }
        }
    }

    static func sequence(_ children: [UInt8]...) -> [UInt8] { constructed(.sequence, children) }

    /// A SET OF, its elements sorted by their encodings as DER requires.
    static func setOf(_ elements: [[UInt8]]) -> [UInt8] {
        constructed(.set, elements.sorted { $0.lexicographicallyPrecedes($1) })
    }

    /// `[number] EXPLICIT` around one encoded element.
    static func explicit(_ number: UInt, _ child: [UInt8]) -> [UInt8] {
        constructed(ASN1Identifier(tagWithNumber: number, tagClass: .contextSpecific), [child])
    }

    static func primitive(_ identifier: ASN1Identifier, _ content: [UInt8]) -> [UInt8] {
        encode { serializer in
            serializer.appendPrimitiveNode(identifier: identifier) { $0.append(contentsOf: content) }
        }
    }

    static func octetString(_ bytes: [UInt8]) -> [UInt8] { primitive(.octetString, bytes) }

    static func integer(_ value: Int) -> [UInt8] {
        // swift-asn1's Int serialisation cannot fail.
        (try? encode { try $0.serialize(value) }) ?? []
    }

    static func objectIdentifier(_ dotted: String) -> [UInt8] {
        (try? encode { try $0.serialize(try ASN1ObjectIdentifier(dotRepresentation: dotted)) }) ?? []
    }

    static let null: [UInt8] = [0x05, 0x00]

    /// An AlgorithmIdentifier: the algorithm's OID and, when given, its encoded parameters.
    static func algorithm(_ oid: String, parameters: [UInt8]? = nil) -> [UInt8] {
        constructed(.sequence, [objectIdentifier(oid)] + (parameters.map { [$0] } ?? []))
    }

    /// A BMPString (UTF-16 big-endian), the string type of PKCS#12 friendly names.
    static func bmpString(_ text: String) -> [UInt8] {
        primitive(.bmpString, text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })
    }
}
#endif
