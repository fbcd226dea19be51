#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import SwiftASN1

/// A structure that is not what the certificate or PKCS#12 grammar says at this point. Callers
/// turn it into `errSecDecode` (or nil, for `SecCertificateCreateWithData`); it never carries bytes.
struct MalformedStructure: Error {}

/// Small, checked steps through a parsed ASN.1 tree: every step either finds what the grammar
/// says is there or throws, so code reading certificates and PKCS#12 files never indexes past
/// what a hostile input holds.
extension ASN1Node {
    /// The children of a constructed node of the given tag.
    func children(_ tag: ASN1Identifier) throws(MalformedStructure) -> [ASN1Node] {
        guard identifier == tag, case .constructed(let nodes) = content else { throw MalformedStructure() }
        return Array(nodes)
    }

    /// The content bytes of a primitive node of the given tag.
    func primitive(_ tag: ASN1Identifier) throws(MalformedStructure) -> ArraySlice<UInt8> {
        guard identifier == tag, case .primitive(let bytes) = content else { throw MalformedStructure() }
        return bytes
    }

    /// An OBJECT IDENTIFIER's dotted form.
    func objectIdentifier() throws(MalformedStructure) -> String {
        do { return try ASN1ObjectIdentifier(derEncoded: self).description } catch { throw MalformedStructure() }
    }

    /// An OCTET STRING's bytes, in either of BER's forms (PKCS#12 files may use the constructed one).
    func octetString(_ tag: ASN1Identifier = .octetString) throws(MalformedStructure) -> [UInt8] {
        do { return Array(try ASN1OctetString(berEncoded: self, withIdentifier: tag).bytes) } catch { throw MalformedStructure() }
    }

    /// A small non-negative INTEGER (versions, iteration counts, key lengths).
    func smallInteger(maximum: Int = Int(Int32.max)) throws(MalformedStructure) -> Int {
        let bytes = try primitive(.integer)
        guard !bytes.isEmpty, bytes.count <= 5, bytes.first! & 0x80 == 0 else { throw MalformedStructure() }
        let value = bytes.reduce(0) { $0 << 8 | Int($1) }
        guard value <= maximum else { throw MalformedStructure() }
        return value
    }

    /// The tag of a context-specific node: `[n]`.
    static func context(_ number: UInt, constructed: Bool = true) -> ASN1Identifier {
        ASN1Identifier(tagWithNumber: number, tagClass: .contextSpecific)
    }
}

extension Array where Element == ASN1Node {
    /// The element at `index`, or a malformed-structure error when the sequence is shorter.
    func element(_ index: Int) throws(MalformedStructure) -> ASN1Node {
        guard indices.contains(index) else { throw MalformedStructure() }
        return self[index]
    }
}

/// Parsing entry points that turn swift-asn1's errors into ours.
enum ASN1Reading {
    /// DER: what certificates are in.
    static func der(_ bytes: [UInt8]) throws(MalformedStructure) -> ASN1Node {
        do { return try DER.parse(bytes) } catch { throw MalformedStructure() }
    }

    /// BER: what PKCS#12 files may be in (indefinite lengths, constructed strings).
    static func ber(_ bytes: [UInt8]) throws(MalformedStructure) -> ASN1Node {
        do { return try BER.parse(bytes) } catch { throw MalformedStructure() }
    }
}
#endif
