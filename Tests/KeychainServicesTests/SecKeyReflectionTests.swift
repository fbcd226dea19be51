import Foundation
import Testing
import KeychainServices

/// A private key printed every way Swift prints a value (description, debugDescription, dump's
/// reflection, string interpolation) shows none of its secret bytes.
@Suite("SecKey: no key material in printed forms")
struct SecKeyReflectionTests {
    @Test("EC and RSA private keys: the secret part is in no printed form", arguments: [false, true])
    func printedForms(_ rsa: Bool) throws {
        let key = rsa ? try makeKey([kSecAttrKeyType: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits: 2048]) : try ecKey()
        let data = try externalRepresentation(key)
        // The EC scalar is the last 32 bytes; in an RSA PKCS#1 key the tail is the CRT coefficient.
        let secret = data.suffix(32)
        var dumped = ""
        dump(key, to: &dumped)
        let forms = [key.description, key.debugDescription, String(reflecting: key), "\(key)", dumped]
        let hex = secret.map { String(format: "%02x", $0) }.joined()
        let decimal = secret.prefix(8).map(String.init).joined(separator: ", ")
        for form in forms {
            #expect(!form.lowercased().contains(hex), "\(form)")
            #expect(!form.contains(decimal), "\(form)")
        }
    }
}
