import Foundation
package import KeychainCallerIdentity
package import KeychainStore
package import Logging

/// The rules keychaind maps its D-Bus callers through (``AccessPolicy``), from the policy folder
/// of the user it runs as (``PolicyFolder/user(_:environment:)``, docs/isolation.md).
///
/// The folder is read again for each new client connection, never per call: a rule written or
/// removed counts from the next connection on, and a connection keeps what it was given. A
/// refused file is logged once, not on every connection.
package final class CallerPolicy: Sendable {
    let folder: PolicyFolder?
    private let reported = Locked<[PolicyProblem]>([])

    /// `folder` nil: no rules (sandboxed apps get their own group, host programs the shared one).
    package init(folder: PolicyFolder?) {
        self.folder = folder
    }

    /// The policy of the user this process runs as, in this environment's configuration folder.
    package static func ofThisUser(environment: [String: String] = ProcessInfo.processInfo.environment) -> CallerPolicy {
        CallerPolicy(folder: PolicyFolder.user(UInt32(geteuid()), environment: environment))
    }

    /// The rules as the folder holds them now; problems not reported before are logged.
    func current(logger: Logger) -> AccessPolicy {
        guard let folder else { return AccessPolicy(rules: []) }
        let (policy, problems) = folder.load()
        let fresh = reported.withLock { reported -> [PolicyProblem] in
            let fresh = problems.filter { !reported.contains($0) }
            reported = problems
            return fresh
        }
        for problem in fresh {
            logger.warning("a caller policy file is refused", metadata: ["problem": "\(problem)"])
        }
        return policy
    }

    /// What `caller` is given under `policy` (the rules as they were read for this connection):
    /// the one decision each of keychaind's doors makes for a new connection, with a rule that
    /// named the caller's path but not its bytes logged, and the outcome logged at debug level.
    func entitlements(for caller: CallerIdentity, under policy: AccessPolicy, door: String, logger: Logger) -> GrantedEntitlements {
        let granted = policy.entitlements(for: caller)
        for mismatch in granted.digestMismatches {
            logger.warning("a caller policy rule did not match", metadata: ["reason": "\(mismatch)"])
        }
        logger.debug("a client was identified", metadata: [
            "door": "\(door)", "process": "\(caller.processID)",
            "groups": "\(granted.keychainAccessGroups.joined(separator: ","))", "reason": "\(granted.reason)",
        ])
        return granted
    }

    /// Resolves a caller with `resolve` (which is given whose executable to hash: only those a
    /// rule pins by digest) and maps it under the rules as they are now, read once for both.
    package func identify(door: String, logger: Logger,
                          resolve: (ExecutableHashing) throws(CallerIdentityError) -> CallerIdentity)
        -> Result<(caller: CallerIdentity, identity: ClientIdentity), CallerIdentityError> {
        let policy = current(logger: logger)
        let caller: CallerIdentity
        do {
            caller = try resolve(policy.executableHashing)
        } catch {
            return .failure(error)
        }
        return .success((caller, entitlements(for: caller, under: policy, door: door, logger: logger).clientIdentity))
    }

    /// Who the process at the other end of a Unix socket is, from the kernel (``CallerIdentityResolver``:
    /// `SO_PEERCRED`, `SO_PEERPIDFD`, then `/proc` through the pidfd, which stays pinned), and the
    /// identity its calls are made with under the rules as they are now; or why it has none. The
    /// decision of the keeper's and the SSH agent's sockets, made once per connection.
    package func identify(socket connection: Int32, door: String, logger: Logger)
        -> Result<(caller: CallerIdentity, identity: ClientIdentity), CallerIdentityError> {
        identify(door: door, logger: logger) { hashing throws(CallerIdentityError) in
            try CallerIdentityResolver.resolve(socket: connection, hashing: hashing)
        }
    }
}
