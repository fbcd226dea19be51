import ArgumentParser
import Foundation
import KeychainServices

/// `find-identity`: lists identities (certificates with their private key) as `security
/// find-identity` does, checked against a policy.
struct FindIdentity: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "find-identity",
        abstract: "Find an identity (certificate + private key).",
        discussion: """
            Lists the identities whose name contains -s, evaluated under -p (basic, ssl-server, \
            ssl-client; default basic) against the system's anchors (/etc/ssl/certs): every \
            matching identity, with why it is not valid, then the valid ones; -v only the valid \
            ones. Each line is the certificate's SHA-1 hash and name. Finding none is not an error.
            """)

    @Option(name: .customShort("p"), help: ArgumentHelp("The policy: basic, ssl-server or ssl-client.", valueName: "policy"))
    var policy: IdentityPolicy = .basic

    @Option(name: .customShort("s"), help: ArgumentHelp("Text the identity's name contains.", valueName: "string"))
    var string: String?

    @Flag(name: .customShort("v"), help: "Only valid identities.")
    var validOnly = false

    @Argument(help: ArgumentHelp("The keychain to search.", valueName: "keychain"))
    var keychains: [String] = []

    @OptionGroup var location: KeychainOption

    func validate() throws {
        try location.validate(positional: keychains, allowsSeveral: false)
    }

    func run() throws {
        let target = KeychainSession.targets(location.named(keychains))[0]
        _ = try KeychainSession.openForItems(target, accessGroup: nil)
        let (status, found) = CertificateSearch.all(identities: true)
        if status != errSecSuccess && status != errSecItemNotFound { throw CommandFailure.status(status, "SecItemCopyMatching").about(target) }
        let matches = CertificateSearch.filter(found, name: string, email: nil, hash: nil)
        let evaluated = matches.map { match -> (CertificateSearch.Found, Int?) in
            var trust: SecTrust?
            _ = SecTrustCreateWithCertificates(match.certificate, policy.secPolicy, &trust)
            var error: CFError?
            guard let trust, !SecTrustEvaluateWithError(trust, &error) else { return (match, nil) }
            return (match, error.map { CFErrorGetCode($0) } ?? Int(errSecNotTrusted))
        }
        var text = "Policy: \(policy.title)\n"
        if !validOnly {
            text += "  Matching identities\n"
            for (index, (match, failure)) in evaluated.enumerated() {
                let reason = failure.map { " (\(Self.reasonName(OSStatus($0))))" } ?? ""
                text += "  \(index + 1)) \(match.sha1) \"\(match.name)\"\(reason)\n"
            }
            text += "     \(evaluated.count) identities found\n\n"
        }
        let valid = evaluated.filter { $0.1 == nil }
        text += "  Valid identities only\n"
        for (index, (match, _)) in valid.enumerated() { text += "  \(index + 1)) \(match.sha1) \"\(match.name)\"\n" }
        text += "     \(valid.count) valid identities found\n"
        Console.out(text)
    }

    /// The CSSM names macOS prints for the usual trust failures.
    static func reasonName(_ status: OSStatus) -> String {
        switch status {
        case errSecCertificateExpired: return "CSSMERR_TP_CERT_EXPIRED"
        case errSecCertificateNotValidYet: return "CSSMERR_TP_CERT_NOT_VALID_YET"
        case errSecInvalidExtendedKeyUsage: return "CSSMERR_TP_VERIFY_ACTION_FAILED"
        default: return "CSSMERR_TP_NOT_TRUSTED"
        }
    }
}

/// The policies find-identity knows, by `security`'s names.
enum IdentityPolicy: String, ExpressibleByArgument, CaseIterable {
    case basic
    case sslServer = "ssl-server"
    case sslClient = "ssl-client"

    var secPolicy: SecPolicy {
        switch self {
        case .basic: return SecPolicyCreateBasicX509()
        case .sslServer: return SecPolicyCreateSSL(true, nil)
        case .sslClient: return SecPolicyCreateSSL(false, nil)
        }
    }

    var title: String {
        switch self {
        case .basic: return "X.509 Basic"
        case .sslServer: return "SSL (server)"
        case .sslClient: return "SSL (client)"
        }
    }
}
