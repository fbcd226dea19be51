import Foundation
import FuzzSupport
@testable import KeychainServices

/// The certificate and PKCS#12 parsers on bytes from the fuzzer (the first byte picks which):
/// `SecCertificateCreateWithData` and every accessor of a certificate that parses (its derived
/// item attributes, summaries, key), `SecPKCS12Import`'s reader with the passphrase "pw", and
/// the name normaliser. Besides crashes, one property is checked: a certificate that parses gives
/// back exactly its bytes.
@_cdecl("FuzzCertificates_main")
public func fuzzCertificatesMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzCertificates)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCertificates(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let selector = input.byte()
    let bytes = Data(input.rest())
    switch selector % 3 {
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
    default:
        if let node = try? ASN1Reading.der([UInt8](bytes)) { _ = try? NameNormalizer.normalize(node) }
        _ = NameNormalizer.issuerQueryValue(bytes)
    }
    return 0
}
