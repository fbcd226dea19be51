import Foundation
import KeychainServices
import Testing

/// Trust evaluation over chains openssl made: a chain to a test CA set as anchor is trusted; a
/// wrong host, an expired or not-yet-valid certificate, an untrusted root and a missing usage
/// each fail with Apple's status; the system's anchors (/etc/ssl/certs) are the default.
@Suite struct SecTrustTests {
    let fixtures: OpenSSLFixtures

    init() throws {
        fixtures = try OpenSSLFixtures()
        try fixtures.makeCA("root", subject: "/CN=Trust Test Root/O=Swift Keychain Tests")
        try fixtures.makeLeaf("intermediate", subject: "/CN=Trust Test Intermediate", issuer: "root",
                              extensions: ["basicConstraints = critical, CA:TRUE", "keyUsage = critical, keyCertSign, cRLSign"])
        try fixtures.makeLeaf("server", subject: "/CN=server.example.com", issuer: "intermediate",
                              extensions: ["subjectAltName = DNS:server.example.com, DNS:*.api.example.com, IP:127.0.0.1",
                                           "extendedKeyUsage = serverAuth"])
        try fixtures.makeLeaf("client", subject: "/CN=client", issuer: "root", extensions: ["extendedKeyUsage = clientAuth"])
        try fixtures.makeCA("other", subject: "/CN=Some Other Root")
    }

    func certificate(_ name: String) throws -> SecCertificate {
        try #require(SecCertificateCreateWithData(nil, try fixtures.data("\(name).der") as CFData))
    }

    func trust(_ names: [String], policy: SecPolicy, anchors: [String]? = ["root"]) throws -> SecTrust {
        var trust: SecTrust?
        let certificates = try names.map(certificate)
        #expect(SecTrustCreateWithCertificates(certificates as CFArray, policy, &trust) == errSecSuccess)
        let made = try #require(trust)
        if let anchors {
            #expect(SecTrustSetAnchorCertificates(made, try anchors.map(certificate) as CFArray) == errSecSuccess)
        }
        return made
    }

    func evaluate(_ trust: SecTrust) -> (Bool, Int?) {
        var error: CFError?
        let trusted = SecTrustEvaluateWithError(trust, &error)
        if let error { #expect(CFErrorGetDomain(error) as String == kCFErrorDomainOSStatus as String) }
        return (trusted, error.map { CFErrorGetCode($0) })
    }

    @Test func aChainToTheAnchorIsTrustedAndCopied() throws {
        let trust = try trust(["server", "intermediate"], policy: SecPolicyCreateSSL(true, "server.example.com" as CFString))
        let (trusted, code) = evaluate(trust)
        #expect(trusted)
        #expect(code == nil)
        let chain = try #require(SecTrustCopyCertificateChain(trust) as? [SecCertificate])
        #expect(chain == [try certificate("server"), try certificate("intermediate"), try certificate("root")])
        #expect(SecTrustGetCertificateCount(trust) == 3)
    }

    @Test func basicX509AndWildcardAndAddressNamesAreTrusted() throws {
        #expect(evaluate(try trust(["server", "intermediate"], policy: SecPolicyCreateBasicX509())).0)
        #expect(evaluate(try trust(["server", "intermediate"], policy: SecPolicyCreateSSL(true, "v1.api.example.com" as CFString))).0)
        #expect(evaluate(try trust(["server", "intermediate"], policy: SecPolicyCreateSSL(true, "127.0.0.1" as CFString))).0)
        #expect(evaluate(try trust(["server", "intermediate"], policy: SecPolicyCreateSSL(true, nil))).0, "no host name: not checked")
    }

    @Test func aWrongHostIsAHostNameMismatch() throws {
        let (trusted, code) = evaluate(try trust(["server", "intermediate"], policy: SecPolicyCreateSSL(true, "evil.example.net" as CFString)))
        #expect(!trusted)
        #expect(code == Int(errSecHostNameMismatch))
        let (deeper, deeperCode) = evaluate(try trust(["server", "intermediate"], policy: SecPolicyCreateSSL(true, "a.b.api.example.com" as CFString)))
        #expect(!deeper, "a wildcard covers one label only")
        #expect(deeperCode == Int(errSecHostNameMismatch))
    }

    @Test func expiredAndNotYetValidAreTheirOwnStatuses() throws {
        let later = try trust(["server", "intermediate"], policy: SecPolicyCreateBasicX509())
        #expect(SecTrustSetVerifyDate(later, Date().addingTimeInterval(60 * 86_400) as CFDate) == errSecSuccess)
        #expect(evaluate(later) == (false, Int(errSecCertificateExpired)))
        let earlier = try trust(["server", "intermediate"], policy: SecPolicyCreateBasicX509())
        #expect(SecTrustSetVerifyDate(earlier, Date().addingTimeInterval(-86_400) as CFDate) == errSecSuccess)
        #expect(evaluate(earlier) == (false, Int(errSecCertificateNotValidYet)))
        #expect(abs(SecTrustGetVerifyTime(earlier) - Date().addingTimeInterval(-86_400).timeIntervalSinceReferenceDate) < 5)
    }

    @Test func anUntrustedRootIsNotTrusted() throws {
        let (trusted, code) = evaluate(try trust(["server", "intermediate"], policy: SecPolicyCreateBasicX509(), anchors: ["other"]))
        #expect(!trusted)
        #expect(code == Int(errSecNotTrusted))
        let (missing, missingCode) = evaluate(try trust(["server"], policy: SecPolicyCreateBasicX509()))
        #expect(!missing, "without the intermediate there is no chain")
        #expect(missingCode == Int(errSecNotTrusted))
    }

    @Test func theSystemAnchorsAreTheDefault() throws {
        // Our test root is in no system store.
        let (trusted, code) = evaluate(try trust(["server", "intermediate"], policy: SecPolicyCreateBasicX509(), anchors: nil))
        #expect(!trusted)
        #expect(code == Int(errSecNotTrusted))
        // A root of the system store (ca-certificates) is trusted as it is.
        let bundle = try String(contentsOfFile: "/etc/ssl/certs/ca-certificates.crt", encoding: .utf8)
        let first = try #require(bundle.components(separatedBy: "-----END CERTIFICATE-----").first)
        let base64 = first.components(separatedBy: "-----BEGIN CERTIFICATE-----").last!.filter { !$0.isWhitespace }
        let rootDER = try #require(Data(base64Encoded: base64))
        let systemRoot = try #require(SecCertificateCreateWithData(nil, rootDER as CFData))
        var trust: SecTrust?
        #expect(SecTrustCreateWithCertificates(systemRoot, SecPolicyCreateBasicX509(), &trust) == errSecSuccess)
        #expect(evaluate(try #require(trust)).0)
    }

    @Test func customAnchorsOnlyUnlessToldOtherwise() throws {
        let trust = try trust(["server", "intermediate"], policy: SecPolicyCreateBasicX509(), anchors: ["other"])
        #expect(!evaluate(trust).0)
        var anchors: CFArray?
        #expect(SecTrustCopyCustomAnchorCertificates(trust, &anchors) == errSecSuccess)
        #expect(anchors as? [SecCertificate] == [try certificate("other")])
        #expect(SecTrustSetAnchorCertificates(trust, [try certificate("other"), try certificate("root")] as CFArray) == errSecSuccess)
        #expect(evaluate(trust).0, "a new evaluation after new anchors")
    }

    @Test func serverAndClientUsagesAreChecked() throws {
        let (asServer, code) = evaluate(try trust(["client"], policy: SecPolicyCreateSSL(true, "client" as CFString)))
        #expect(!asServer)
        #expect(code == Int(errSecInvalidExtendedKeyUsage) || code == Int(errSecHostNameMismatch))
        #expect(evaluate(try trust(["client"], policy: SecPolicyCreateSSL(false, nil))).0)
        #expect(evaluate(try trust(["server", "intermediate"], policy: SecPolicyCreateSSL(false, nil))) == (false, Int(errSecInvalidExtendedKeyUsage)))
    }

    @Test func errorsNameTheCertificateAndNothingElse() throws {
        var error: CFError?
        #expect(!SecTrustEvaluateWithError(try trust(["server", "intermediate"], policy: SecPolicyCreateSSL(true, "x.example.net" as CFString)), &error))
        let description = try #require(error).localizedDescription
        #expect(description.contains("server.example.com"))
    }

    @Test func policiesAndTheirProperties() throws {
        let ssl = SecPolicyCreateSSL(true, "host.example.com" as CFString)
        let properties = try #require(SecPolicyCopyProperties(ssl) as? [String: Any])
        #expect(properties[kSecPolicyOid as String] as? String == kSecPolicyAppleSSL as String)
        #expect(properties[kSecPolicyName as String] as? String == "host.example.com")
        #expect(CFGetTypeID(ssl) == SecPolicyGetTypeID())
        let made = SecPolicyCreateWithProperties(kSecPolicyAppleSSL, [kSecPolicyName: "host.example.com"] as CFDictionary)
        #expect(made == ssl)
        #expect(SecPolicyCreateWithProperties(kSecPolicyAppleX509Basic, nil) == SecPolicyCreateBasicX509())
        #expect(SecPolicyCreateWithProperties("1.2.3.4" as CFString, nil) == nil)
    }

    @Test func badArgumentsAreErrSecParam() throws {
        var trust: SecTrust?
        #expect(SecTrustCreateWithCertificates("not a certificate" as CFString, nil, &trust) == errSecParam)
        #expect(SecTrustCreateWithCertificates([] as CFArray, nil, &trust) == errSecParam)
        #expect(SecTrustCreateWithCertificates(try certificate("server"), "not a policy" as CFString, &trust) == errSecParam)
        #expect(trust == nil)
    }

    /// Synchronous evaluations called from many tasks at once: none may wait for a thread of
    /// the cooperative pool that the waiting callers themselves hold (this deadlocked once).
    @Test func evaluationsFromManyTasksAtOnceFinish() async throws {
        let certificates = [try certificate("server"), try certificate("intermediate")]
        let root = try certificate("root")
        let results = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    var trust: SecTrust?
                    _ = SecTrustCreateWithCertificates(certificates as CFArray, SecPolicyCreateBasicX509(), &trust)
                    guard let trust else { return false }
                    _ = SecTrustSetAnchorCertificates(trust, [root] as CFArray)
                    return SecTrustEvaluateWithError(trust, nil)
                }
            }
            var all: [Bool] = []
            for await result in group { all.append(result) }
            return all
        }
        #expect(results == Array(repeating: true, count: 16))
    }

    @Test func theDeprecatedResultAndTheAsyncForm() async throws {
        let good = try trust(["server", "intermediate"], policy: SecPolicyCreateBasicX509())
        var result = SecTrustResultType.invalid
        #expect(SecTrustEvaluate(good, &result) == errSecSuccess)
        #expect(result == .unspecified)
        let bad = try trust(["server", "intermediate"], policy: SecPolicyCreateBasicX509(), anchors: ["other"])
        let outcome: (Bool, Int?) = await withCheckedContinuation { continuation in
            _ = SecTrustEvaluateAsyncWithError(bad, DispatchQueue.global()) { _, trusted, error in
                continuation.resume(returning: (trusted, error.map { CFErrorGetCode($0) }))
            }
        }
        #expect(outcome == (false, Int(errSecNotTrusted)))
    }
}
