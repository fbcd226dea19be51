#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One rule of the policy: which callers it is for, and what it grants them (Apple's two
/// entitlements: an application identifier and `keychain-access-groups`, first group the
/// default for adds).
///
/// A rule is a small text file of `key = value` lines (docs/isolation.md, "Policy files"):
///
///     # Example's password manager, and the shared group.
///     flatpak = org.example.Passwords
///     application-identifier = org.example.Passwords
///     keychain-access-groups = org.example.Passwords, swift-keychain.shared
///
/// Exactly one subject: `flatpak`, `snap`, `system-unit`, or `executable` (with
/// `executable-sha256` unless the path is root's alone, and with `script` when the executable
/// is an interpreter).
package struct AccessRule: Sendable, Equatable {
    package enum Subject: Sendable, Equatable {
        case flatpak(String)
        case snap(String)
        case systemUnit(String)
        /// An executable, by resolved path and (unless root alone can change it) digest, and for
        /// an interpreter, the script it must be running.
        case executable(Pinned, script: Pinned?)
    }

    /// A file named by its resolved path, and its digest when the path alone is not enough.
    package struct Pinned: Sendable, Equatable {
        package let path: String
        package let sha256: String?
    }

    package let subject: Subject
    package let applicationIdentifier: String?
    /// Never empty; the first is where adds without a group go.
    package let keychainAccessGroups: [String]
    /// The file it was read from, for messages.
    package let source: String

    /// The keys of a rule file. The two grants are named as the entitlements they stand for.
    enum Key: String, CaseIterable {
        case flatpak
        case snap
        case systemUnit = "system-unit"
        case executable
        case executableSHA256 = "executable-sha256"
        case script
        case scriptSHA256 = "script-sha256"
        case applicationIdentifier = "application-identifier"
        case keychainAccessGroups = "keychain-access-groups"
    }

    /// Reads a rule; a refused rule throws a message that says why.
    package static func parse(_ text: String, source: String) throws(PolicyProblem) -> AccessRule {
        func refuse(_ reason: String) -> PolicyProblem { PolicyProblem(file: source, reason: reason) }
        var values: [Key: String] = [:]
        for (offset, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = rawLine.trimmingSpaces
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let equals = line.firstIndex(of: "=") else { throw refuse("line \(offset + 1) is not `key = value`") }
            let name = String(line[..<equals].trimmingSpaces)
            let value = String(line[line.index(after: equals)...].trimmingSpaces)
            guard let key = Key(rawValue: name) else {
                throw refuse("line \(offset + 1): unknown key '\(name)' (known: \(Key.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            guard values[key] == nil else { throw refuse("line \(offset + 1): '\(name)' is given twice") }
            guard !value.isEmpty else { throw refuse("line \(offset + 1): '\(name)' has no value") }
            guard !value.contains(where: \.isASCIIControl) else { throw refuse("line \(offset + 1): '\(name)' holds a control character") }
            values[key] = value
        }

        let subjects = [Key.flatpak, .snap, .systemUnit, .executable].filter { values[$0] != nil }
        guard subjects.count == 1, let kind = subjects.first else {
            throw refuse("a rule names exactly one of flatpak, snap, system-unit, executable (this one names \(subjects.isEmpty ? "none" : subjects.map(\.rawValue).joined(separator: " and ")))")
        }
        if kind != .executable {
            for key in [Key.executableSHA256, .script, .scriptSHA256] where values[key] != nil {
                throw refuse("'\(key.rawValue)' belongs to an executable rule")
            }
        }
        let value = values[kind]!
        let subject: Subject
        switch kind {
        case .flatpak:
            guard FlatpakApp.isValidApplicationID(value) else { throw refuse("'\(value)' is not a valid Flatpak app id") }
            subject = .flatpak(value)
        case .snap:
            guard SnapApp.isValidInstanceName(value) else { throw refuse("'\(value)' is not a valid snap name") }
            subject = .snap(value)
        case .systemUnit:
            guard isValidUnitName(value) else { throw refuse("'\(value)' is not a system unit name (name.service or name.scope)") }
            subject = .systemUnit(value)
        default:
            subject = try executableSubject(values, refuse: refuse)
        }

        guard let groupList = values[.keychainAccessGroups] else { throw refuse("no keychain-access-groups: a rule must grant at least one group") }
        let groups = groupList.split(separator: ",").map { String($0.trimmingSpaces) }
        guard !groups.contains(where: \.isEmpty) else { throw refuse("keychain-access-groups has an empty entry") }
        guard Set(groups).count == groups.count else { throw refuse("keychain-access-groups names a group twice") }
        guard !groups.contains(where: { group in group.contains { $0 == " " || $0 == "\t" } }) else {
            throw refuse("a group name holds a space")
        }
        return AccessRule(subject: subject, applicationIdentifier: values[.applicationIdentifier],
                          keychainAccessGroups: groups, source: source)
    }

    private static func executableSubject(_ values: [Key: String], refuse: (String) -> PolicyProblem) throws(PolicyProblem) -> Subject {
        let executable = try pinned(values[.executable]!, digest: values[.executableSHA256], what: "executable", digestKey: .executableSHA256, refuse: refuse)
        let interpreter = Interpreters.isInterpreter(path: values[.executable]) || Interpreters.isInterpreter(path: executable.path)
        guard let scriptPath = values[.script] else {
            if values[.scriptSHA256] != nil { throw refuse("'script-sha256' without 'script'") }
            if interpreter {
                throw refuse("\(executable.path) is an interpreter or generic client: it runs whatever it is given, so a rule "
                             + "never grants by it alone; name the script it must run with 'script' (and 'script-sha256')")
            }
            return .executable(executable, script: nil)
        }
        guard interpreter else {
            throw refuse("'script' is for interpreters, and \(executable.path) is not one this policy knows")
        }
        let script = try pinned(scriptPath, digest: values[.scriptSHA256], what: "script", digestKey: .scriptSHA256, refuse: refuse)
        return .executable(executable, script: script)
    }

    /// A path resolved as the kernel will show it (symbolic links followed), with its digest
    /// or, without one, the proof that root alone can change it.
    private static func pinned(_ path: String, digest: String?, what: String, digestKey: Key,
                               refuse: (String) -> PolicyProblem) throws(PolicyProblem) -> Pinned {
        guard path.hasPrefix("/") else { throw refuse("the \(what) '\(path)' is not an absolute path") }
        guard let resolved = realpath(path, nil) else { throw refuse("the \(what) '\(path)' cannot be resolved (errno \(errno))") }
        defer { free(resolved) }
        let resolvedPath = String(cString: resolved)
        if let digest {
            let lowered = digest.lowercased()
            guard lowered.count == 64, lowered.allSatisfy(\.isHexDigit) else {
                throw refuse("'\(digestKey.rawValue)' is not a SHA-256 (64 hexadecimal digits)")
            }
            return Pinned(path: resolvedPath, sha256: lowered)
        }
        if let problem = TrustedPath.problem(withPath: resolvedPath) {
            throw refuse("the \(what) \(resolvedPath) is named by path alone, but \(problem); give its '\(digestKey.rawValue)'")
        }
        return Pinned(path: resolvedPath, sha256: nil)
    }

    private static func isValidUnitName(_ name: String) -> Bool {
        guard name.hasSuffix(".service") || name.hasSuffix(".scope"), !name.hasPrefix("."), name.utf8.count <= 255 else { return false }
        return name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || ":-_.\\@".contains($0)) }
    }
}

/// A policy file that was refused, and why: reported, never silently skipped.
package struct PolicyProblem: Error, Sendable, Equatable, CustomStringConvertible {
    package let file: String
    package let reason: String

    package init(file: String, reason: String) {
        self.file = file
        self.reason = reason
    }
    package var description: String { "\(file): \(reason)" }
}
