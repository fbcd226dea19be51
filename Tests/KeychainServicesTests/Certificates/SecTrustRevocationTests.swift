import Foundation
import KeychainServices
import Testing

/// The revocation policy and the trust calls certificate-pinning code makes, over a chain openssl
/// made whose leaf names an OCSP responder. No revocation response is ever had here, and a
/// policy requiring one must fail as Apple's trustd fails it (`errSecIncompleteCertRevocationCheck`,
/// a recoverable failure), never pass.
@Suite struct SecTrustRevocationTests {
    let fixtures: OpenSSLFixtures

    init() throws {
        fixtures = try OpenSSLFixtures()
        try fixtures.makeCA("root", subject: "/CN=Revocation Test Root")
        // The responder's address is one nothing listens on: were it ever asked, it would not answer.
        try fixtures.makeLeaf("server", subject: "/CN=pinned.example.com", issuer: "root",
                              extensions: ["subjectAltName = DNS:pinned.example.com", "extendedKeyUsage = serverAuth",
                                           "authorityInfoAccess = OCSP;URI:http://127.0.0.1:9/ocsp",
                                           "crlDistributionPoints = URI:http://127.0.0.1:9/root.crl"])
        try fixtures.makeCA("other", subject: "/CN=Unrelated Root")
    }

    func certificate(_ name: String) throws -> SecCertificate {
        try #require(SecCertificateCreateWithData(nil, try fixtures.data("\(name).der") as CFData))
    }

    func trust(revocation flags: CFOptionFlags?, anchor: String = "root") throws -> SecTrust {
        var policies: [SecPolicy] = [SecPolicyCreateSSL(true, "pinned.example.com" as CFString)]
        if let flags { policies.append(try #require(SecPolicyCreateRevocation(flags))) }
        var trust: SecTrust?
        #expect(SecTrustCreateWithCertificates(try certificate("server"), policies as CFArray, &trust) == errSecSuccess)
        let made = try #require(trust)
        #expect(SecTrustSetAnchorCertificates(made, [try certificate(anchor)] as CFArray) == errSecSuccess)
        return made
    }

    func evaluate(_ trust: SecTrust) -> (Bool, Int?) {
        var error: CFError?
        let trusted = SecTrustEvaluateWithError(trust, &error)
        return (trusted, error.map { CFErrorGetCode($0) })
    }

    @Test func theFlagsHaveApplesValues() {
        #expect([kSecRevocationOCSPMethod, kSecRevocationCRLMethod, kSecRevocationPreferCRL,
                  kSecRevocationRequirePositiveResponse, kSecRevocationNetworkAccessDisabled] == [1, 2, 4, 8, 16])
        #expect(kSecRevocationUseAnyAvailableMethod == 3)
    }

    @Test func aRequiredResponseThatCannotBeHadFailsTheEvaluation() throws {
        for flags in [kSecRevocationUseAnyAvailableMethod | kSecRevocationRequirePositiveResponse,
                      kSecRevocationOCSPMethod | kSecRevocationRequirePositiveResponse | kSecRevocationNetworkAccessDisabled,
                      kSecRevocationCRLMethod | kSecRevocationPreferCRL | kSecRevocationRequirePositiveResponse] {
            let required = try trust(revocation: flags)
            #expect(SecTrustSetNetworkFetchAllowed(required, true) == errSecSuccess)
            #expect(evaluate(required) == (false, Int(errSecIncompleteCertRevocationCheck)), "flags \(flags)")
            var result = SecTrustResultType.invalid
            #expect(SecTrustEvaluate(required, &result) == errSecSuccess)
            #expect(result == .recoverableTrustFailure)
            let dictionary = try #require(SecTrustCopyResult(required) as? [String: Any])
            #expect(dictionary[kSecTrustResultValue as String] as? UInt32 == SecTrustResultType.recoverableTrustFailure.rawValue)
            #expect(dictionary[kSecTrustRevocationChecked as String] == nil)
        }
        var error: CFError?
        #expect(!SecTrustEvaluateWithError(try trust(revocation: kSecRevocationRequirePositiveResponse | kSecRevocationOCSPMethod), &error))
        #expect(try #require(error).localizedDescription.contains("revocation"))
    }

    @Test func aBestAttemptIsNotFatalAndIsNotReportedAsChecked() throws {
        for flags in [kSecRevocationOCSPMethod, kSecRevocationUseAnyAvailableMethod | kSecRevocationNetworkAccessDisabled] {
            let bestAttempt = try trust(revocation: flags)
            #expect(evaluate(bestAttempt) == (true, nil))
            let dictionary = try #require(SecTrustCopyResult(bestAttempt) as? [String: Any])
            #expect(dictionary[kSecTrustResultValue as String] as? UInt32 == SecTrustResultType.unspecified.rawValue)
            #expect(dictionary[kSecTrustRevocationChecked as String] == nil, "nothing was checked")
            #expect(dictionary[kSecTrustEvaluationDate as String] is Date)
        }
    }

    @Test func aChainThatFailsOtherwiseReportsItsOwnFailure() throws {
        let untrusted = try trust(revocation: kSecRevocationUseAnyAvailableMethod | kSecRevocationRequirePositiveResponse, anchor: "other")
        #expect(evaluate(untrusted) == (false, Int(errSecNotTrusted)))
    }

    @Test func revocationPoliciesAreMadeAsApplesAre() throws {
        #expect(SecPolicyCreateRevocation(0) == nil, "no flags: no policy")
        #expect(SecPolicyCreateRevocation(1 << 7) == nil, "an undefined bit: no policy")
        let policy = try #require(SecPolicyCreateRevocation(kSecRevocationOCSPMethod | kSecRevocationRequirePositiveResponse))
        let properties = try #require(SecPolicyCopyProperties(policy) as? [String: Any])
        #expect(properties[kSecPolicyOid as String] as? String == kSecPolicyAppleRevocation as String)
        #expect(SecPolicyCreateWithProperties(kSecPolicyAppleRevocation, nil) == SecPolicyCreateRevocation(kSecRevocationUseAnyAvailableMethod))
        #expect(CFGetTypeID(policy) == SecPolicyGetTypeID())
        var trust: SecTrust?
        #expect(SecTrustCreateWithCertificates(try certificate("server"), [policy] as CFArray, &trust) == errSecSuccess)
        var policies: CFArray?
        #expect(SecTrustCopyPolicies(try #require(trust), &policies) == errSecSuccess)
        #expect(policies as? [SecPolicy] == [policy])
    }

    @available(*, deprecated)
    func deprecatedPublicKey(_ trust: SecTrust) -> SecKey? { SecTrustCopyPublicKey(trust) }

    /// Apple's SecTrustCopyKey reads the leaf's key without evaluating, whatever the trust would
    /// say, and keeps it: every call gives the same key object.
    @available(*, deprecated)
    @Test func theLeafKeyComesFromTheLeafAndIsKept() throws {
        let untrusted = try trust(revocation: nil, anchor: "other")
        let key = try #require(SecTrustCopyKey(untrusted))
        #expect(key == SecCertificateCopyKey(try certificate("server")))
        #expect(SecTrustCopyKey(untrusted) === key)
        #expect(deprecatedPublicKey(untrusted) === key)
        #expect(evaluate(untrusted).0 == false)
        #expect(SecTrustCopyKey(untrusted) === key, "evaluating changes nothing")
    }
}
