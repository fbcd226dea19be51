#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SwiftASN1
// The fixed verification time of SecTrustSetVerifyDate is swift-certificates' SPI for that purpose.
@_spi(FixedExpiryValidationTime) import X509

/// The outcome of one trust evaluation: the chain that was built (leaf first) and, when it is not
/// trusted, the status saying why.
struct TrustOutcome: Sendable {
    let chain: [Certificate]
    let failure: OSStatus?
}

/// Trust evaluation over swift-certificates' `Verifier`: RFC 5280 path building and validation
/// to the anchors, and for TLS policies the host name (RFC 6125, `ServerIdentityPolicy`) and the
/// extended key usage. When a chain fails, the evaluation is repeated with the checks relaxed
/// one at a time to name the reason as Apple's statuses do: no chain to an anchor is
/// `errSecNotTrusted`, an expired or not-yet-valid certificate `errSecCertificateExpired` /
/// `errSecCertificateNotValidYet`, a wrong host `errSecHostNameMismatch`, a missing usage
/// `errSecInvalidExtendedKeyUsage`, and a trusted chain under a revocation policy that requires
/// a response `errSecIncompleteCertRevocationCheck`.
enum TrustEvaluator {
    struct Request: Sendable {
        let leaf: Certificate
        let intermediates: [Certificate]
        let anchors: [Certificate]
        let includeSystemAnchors: Bool
        let policies: [SecPolicy.Kind]
        /// The verification time SecTrustSetVerifyDate set, or nil for the time of evaluation.
        let fixedTime: Date?
        var time: Date { fixedTime ?? Date() }
    }

    static func evaluate(_ request: Request) -> TrustOutcome {
        blocking { await evaluateAsync(request) }
    }

    private static func evaluateAsync(_ request: Request) async -> TrustOutcome {
        if let chain = await validate(request, checkValidity: true, checkHostname: true, checkUsage: true) {
            // No revocation response is ever had here (no network): a policy requiring one fails
            // a chain that is otherwise trusted, as trustd does (SecPolicy+Revocation.swift).
            if request.policies.contains(where: \.requiresRevocationResponse) {
                return TrustOutcome(chain: chain, failure: errSecIncompleteCertRevocationCheck)
            }
            return TrustOutcome(chain: chain, failure: nil)
        }
        // Which check failed: without the validity period, is there a chain at all?
        guard let chain = await validate(request, checkValidity: false, checkHostname: false, checkUsage: false) else {
            return TrustOutcome(chain: [request.leaf] + request.intermediates, failure: errSecNotTrusted)
        }
        if let expired = chain.first(where: { !($0.notValidBefore...$0.notValidAfter).contains(request.time) }) {
            let status = request.time > expired.notValidAfter ? errSecCertificateExpired : errSecCertificateNotValidYet
            return TrustOutcome(chain: chain, failure: status)
        }
        if await validate(request, checkValidity: true, checkHostname: false, checkUsage: true) != nil {
            return TrustOutcome(chain: chain, failure: errSecHostNameMismatch)
        }
        if await validate(request, checkValidity: true, checkHostname: true, checkUsage: false) != nil {
            return TrustOutcome(chain: chain, failure: errSecInvalidExtendedKeyUsage)
        }
        return TrustOutcome(chain: chain, failure: errSecNotTrusted)
    }

    private static func validate(_ request: Request, checkValidity: Bool, checkHostname: Bool, checkUsage: Bool) async -> [Certificate]? {
        var roots = CertificateStore(request.anchors)
        if request.includeSystemAnchors { roots = CertificateStore.systemTrustRoots.appending(contentsOf: request.anchors) }
        let policy = PolicySet(
            // Relaxed, no RFC 5280 checks at all: the Verifier still checks every signature, so
            // a chain found this way is one of signatures from the leaf to an anchor.
            base: checkValidity ? request.fixedTime.map { RFC5280Policy(fixedExpiryValidationTime: $0) } ?? RFC5280Policy() : nil,
            hostnames: checkHostname ? request.policies.compactMap(\.hostnameToCheck).map { ServerIdentityPolicy(hostname: $0) } : [],
            usages: checkUsage ? request.policies.compactMap(\.requiredUsage).map(UsagePolicy.init) : [])
        var verifier = Verifier(rootCertificates: roots) { policy }
        switch await verifier.validate(leaf: request.leaf, intermediates: CertificateStore(request.intermediates)) {
        case .validCertificate(let chain): return Array(chain)
        case .couldNotValidate: return nil
        }
    }

    /// Runs async work to completion from synchronous code (SecTrust's API is synchronous). The
    /// work runs on a thread of its own (a task executor over a dispatch queue), never on Swift's
    /// cooperative pool: a caller blocking a pool thread while the work waited for one would
    /// deadlock once every pool thread was blocked so (two, on a two-core machine).
    private static func blocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox<T>()
        Task(executorPreference: executor) {
            box.value = await body()
            done.signal()
        }
        done.wait()
        return box.value!
    }

    private static let executor = QueueTaskExecutor()

    private final class ResultBox<T>: @unchecked Sendable {
        // Written once by the task before it signals, read after the wait: the semaphore orders them.
        var value: T?
    }
}

/// A task executor whose jobs run on a dispatch queue's threads.
private final class QueueTaskExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "swift-keychain.trust-evaluation", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}

extension SecPolicy.Kind {
    var hostnameToCheck: String? {
        if case .ssl(true, let hostname?) = self, !hostname.isEmpty { return hostname }
        return nil
    }

    var requiredUsage: ExtendedKeyUsage.Usage? {
        if case .ssl(let server, _) = self { return server ? .serverAuth : .clientAuth }
        return nil
    }
}

extension ServerIdentityPolicy {
    /// A host name or, when it is an address, the address.
    init(hostname: String) {
        var address = in6_addr()
        let isAddress = inet_pton(AF_INET, hostname, &address) == 1 || inet_pton(AF_INET6, hostname, &address) == 1
        self.init(serverHostname: isAddress ? nil : hostname, serverIP: isAddress ? hostname : nil)
    }
}

/// A leaf that lists extended key usages must list the one the policy needs, or anyExtendedKeyUsage
/// (as Apple's TLS policies require of the leaf).
struct UsagePolicy: VerifierPolicy {
    let usage: ExtendedKeyUsage.Usage
    var verifyingCriticalExtensions: [ASN1ObjectIdentifier] { [.X509ExtensionID.extendedKeyUsage] }

    init(_ usage: ExtendedKeyUsage.Usage) { self.usage = usage }

    func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) async -> PolicyEvaluationResult {
        // No extension allows every use; one that does not parse allows none.
        if chain.leaf.extensions[oid: .X509ExtensionID.extendedKeyUsage] == nil { return .meetsPolicy }
        guard let listed = try? chain.leaf.extensions.extendedKeyUsage else {
            return .failsToMeetPolicy(reason: "extended key usage does not parse")
        }
        return listed.contains(usage) || listed.contains(.any) ? .meetsPolicy : .failsToMeetPolicy(reason: "extended key usage")
    }
}

extension RFC5280Policy {
    /// The critical extensions RFC 5280 processing understands, for relaxed evaluations that
    /// leave the policy itself out.
    static let criticalExtensions = RFC5280Policy().verifyingCriticalExtensions
}

/// The checks of one evaluation, every one of which a chain must pass.
struct PolicySet: VerifierPolicy {
    var base: RFC5280Policy?
    var hostnames: [ServerIdentityPolicy]
    var usages: [UsagePolicy]

    var verifyingCriticalExtensions: [ASN1ObjectIdentifier] {
        (base?.verifyingCriticalExtensions ?? RFC5280Policy.criticalExtensions) + hostnames.flatMap(\.verifyingCriticalExtensions) + usages.flatMap(\.verifyingCriticalExtensions)
    }

    mutating func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) async -> PolicyEvaluationResult {
        if let base, case .failsToMeetPolicy(let reason) = base.chainMeetsPolicyRequirements(chain: chain) { return .failsToMeetPolicy(reason: reason) }
        for index in hostnames.indices {
            if case .failsToMeetPolicy(let reason) = hostnames[index].chainMeetsPolicyRequirements(chain: chain) { return .failsToMeetPolicy(reason: reason) }
        }
        for usage in usages {
            if case .failsToMeetPolicy(let reason) = await usage.chainMeetsPolicyRequirements(chain: chain) { return .failsToMeetPolicy(reason: reason) }
        }
        return .meetsPolicy
    }
}
#endif
