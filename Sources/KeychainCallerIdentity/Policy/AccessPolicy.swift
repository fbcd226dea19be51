package import KeychainStore

/// What a caller is granted: Apple's two keychain entitlements, and why.
package struct GrantedEntitlements: Sendable, Equatable {
    package enum Reason: Sendable, Equatable {
        /// The rule from this file matched.
        case rule(source: String)
        /// A Flatpak or snap app with no rule: its own group only.
        case sandboxDefault
        /// A host program with no rule: the shared group, as before there was a policy.
        case hostDefault
    }

    package let applicationIdentifier: String?
    /// The first is the default for adds.
    package let keychainAccessGroups: [String]
    package let reason: Reason
    /// Rules that named this caller's executable or script by path but whose digest differs:
    /// the file changed since the rule was written ("fingerprint changed"), so they did not match.
    package let digestMismatches: [String]

    /// The engine's identity for these entitlements (`ClientIdentity`, default group first).
    package var clientIdentity: ClientIdentity {
        ClientIdentity(applicationIdentifier: applicationIdentifier, keychainAccessGroups: keychainAccessGroups)
    }
}

/// The rules that map callers to entitlements, and the defaults for callers no rule names.
///
/// A sandboxed caller (Flatpak, snap) is matched only by its sandbox's id: its executable is
/// whatever its sandbox put at that path. A host caller is matched by its system unit first
/// (root placed it there), then by its executable (and script). Defaults: a Flatpak app gets
/// `flatpak.<app id>`, a snap `snap.<instance name>`, as its application identifier and only
/// group, never `swift-keychain.shared` unless a rule lists it; a host program keeps the shared
/// group (``ClientIdentity/unconfigured``).
package struct AccessPolicy: Sendable {
    package let rules: [AccessRule]

    package init(rules: [AccessRule]) { self.rules = rules }

    /// The prefix of a Flatpak app's own group and application identifier.
    package static let flatpakGroupPrefix = "flatpak."
    /// The prefix of a snap's own group and application identifier.
    package static let snapGroupPrefix = "snap."

    /// The group and application identifier a sandboxed caller has by default.
    package static func ownGroup(of caller: CallerIdentity) -> String? {
        if let flatpak = caller.flatpak { return flatpakGroupPrefix + flatpak.applicationID }
        if let snap = caller.snap { return snapGroupPrefix + snap.instanceName }
        return nil
    }

    /// The executables a caller's resolution must hash for these rules: those a rule pins by
    /// SHA-256. Any other caller's digest is never looked at.
    package var executableHashing: ExecutableHashing {
        .only(Set(rules.compactMap { rule -> String? in
            guard case .executable(let executable, _) = rule.subject, executable.sha256 != nil else { return nil }
            return executable.path
        }))
    }

    package func entitlements(for caller: CallerIdentity) -> GrantedEntitlements {
        if caller.isSandboxed {
            let rule = rules.first { rule in
                switch rule.subject {
                case .flatpak(let id): return caller.flatpak?.applicationID == id
                // Flatpak first: a process in a Flatpak sandbox is judged by its app id alone.
                case .snap(let name): return caller.flatpak == nil && caller.snap?.instanceName == name
                default: return false
                }
            }
            if let rule { return Self.granted(by: rule, mismatches: []) }
            let own = Self.ownGroup(of: caller)!
            return GrantedEntitlements(applicationIdentifier: own, keychainAccessGroups: [own], reason: .sandboxDefault, digestMismatches: [])
        }
        if let unit = caller.systemdUnit, unit.isSetByRoot,
           let rule = rules.first(where: { $0.subject == .systemUnit(unit.name) }) {
            return Self.granted(by: rule, mismatches: [])
        }
        var mismatches: [String] = []
        for rule in rules {
            guard case .executable(let executable, let script) = rule.subject else { continue }
            guard Self.matches(executable, caller.executable, what: "executable", rule: rule, mismatches: &mismatches) else { continue }
            if let script, !Self.matches(script, caller.script, what: "script", rule: rule, mismatches: &mismatches) { continue }
            return Self.granted(by: rule, mismatches: mismatches)
        }
        let shared = ClientIdentity.unconfigured
        return GrantedEntitlements(applicationIdentifier: nil, keychainAccessGroups: shared.accessGroups, reason: .hostDefault,
                                   digestMismatches: mismatches)
    }

    private static func matches(_ pinned: AccessRule.Pinned, _ file: ExecutableFile?, what: String, rule: AccessRule,
                                mismatches: inout [String]) -> Bool {
        guard let file, file.path == pinned.path else { return false }
        guard let digest = pinned.sha256 else { return true }
        if file.sha256 == digest { return true }
        mismatches.append("\(pinned.path): the \(what)'s SHA-256 is not the one \(rule.source) names (fingerprint changed)")
        return false
    }

    private static func granted(by rule: AccessRule, mismatches: [String]) -> GrantedEntitlements {
        GrantedEntitlements(applicationIdentifier: rule.applicationIdentifier, keychainAccessGroups: rule.keychainAccessGroups,
                            reason: .rule(source: rule.source), digestMismatches: mismatches)
    }
}
