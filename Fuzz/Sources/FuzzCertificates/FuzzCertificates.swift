import Foundation
import FuzzSupport
@testable import KeychainServices

/// The certificate and PKCS#12 parsers on bytes from the fuzzer (the first byte picks which):
/// `SecCertificateCreateWithData` and every accessor of a certificate that parses (its derived
/// item attributes, summaries, key), `SecPKCS12Import`'s reader with the passphrase "pw", and
/// the name normaliser, and the PKCS#12 writer. Besides crashes, two properties are checked: a
/// certificate that parses gives back exactly its bytes, and whatever the writer is given (a
/// passphrase, a friendly name, certificate and key bytes) the reader gets back unchanged.
@_cdecl("FuzzCertificates_main")
public func fuzzCertificatesMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzCertificates)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCertificates(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let selector = input.byte()
    let bytes = Data(input.rest())
    switch selector % 4 {
    case 0:
        guard let certificate = SecCertificateCreateWithData(nil, bytes as CFData) else { return 0 }
        guard SecCertificateCopyData(certificate) as Data == bytes else { fatalError("a certificate does not give back its bytes") }
        _ = certificate.itemAttributes()
        _ = SecCertificateCopySubjectSummary(certificate)
        var name: CFString?
        _ = SecCertificateCopyCommonName(certificate, &name)
        var addresses: CFArray?
        _ = SecCertificateCopyEmailAddresses(certificate, &addresses)
        _ = SecCertificateCopyKey(certificate)
        _ = certificate.description
    case 1:
        // OpenSSL's iteration count (2,048) is the most a fuzzed file may ask for, so that each
        // input stays fast; the real bound is PKCS12Parser.defaultIterationLimit.
        if let contents = try? PKCS12Parser.parse(bytes, password: "pw", iterationLimit: 2048) {
            for key in contents.keys { _ = PKCS8PrivateKey.key(key.contents) }
            for certificate in contents.certificates { _ = SecCertificate(der: certificate.contents) }
        }
    case 3:
        pkcs12RoundTrip(FuzzInput(Array(bytes)))
    default:
        if let node = try? ASN1Reading.der([UInt8](bytes)) { _ = try? NameNormalizer.normalize(node) }
        _ = NameNormalizer.issuerQueryValue(bytes)
    }
    return 0
}

/// Writes a PKCS#12 file from fuzzed parts and reads it back: the passphrase and friendly name
/// are arbitrary text, the certificate arbitrary bytes, the key arbitrary bytes inside a
/// SEQUENCE (the reader checks that a decrypted key is one). One PBKDF2 round keeps it fast.
func pkcs12RoundTrip(_ input: FuzzInput) {
    var input = input
    let passphrase = String(decoding: input.bytes(input.choose(32)), as: UTF8.self)
    let name = String(decoding: input.bytes(input.choose(32)), as: UTF8.self)
    let keyID = input.bytes(input.choose(24))
    let rest = input.rest()
    let certificate = Array(rest.prefix(rest.count / 2))
    let key = DERWriting.sequence(DERWriting.octetString(Array(rest.dropFirst(rest.count / 2))))
    var writer = PKCS12Writer()
    writer.iterations = 1
    let attributes = PKCS12Writer.Attributes(friendlyName: name, localKeyID: keyID)
    writer.add(certificate: certificate, attributes)
    writer.add(privateKeyInfo: key, attributes)
    guard let file = try? writer.write(password: passphrase) else { fatalError("the writer failed") }
    guard let contents = try? PKCS12Parser.parse(Data(file), password: passphrase, iterationLimit: 1) else {
        fatalError("the reader refused the writer's file")
    }
    guard contents.certificates.map(\.contents) == [Data(certificate)], contents.keys.map(\.contents) == [Data(key)],
          (contents.certificates + contents.keys).allSatisfy({ $0.friendlyName == name && $0.localKeyID == Data(keyID) }) else {
        fatalError("a PKCS#12 round trip changed its contents")
    }
}
