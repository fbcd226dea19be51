import Crypto
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A rule as `keychainctl grant-access` writes it: who it is for, what it grants, and the file
/// of the policy folder it goes in (docs/isolation.md, "Granting with keychainctl").
///
/// The text is made here and then read back by ``AccessRule/parse(_:source:)`` inside the
/// folder's own loading (``PolicyFolder/load(withFile:holding:)``), so a grant is refused for
/// exactly what keychaind would refuse, with the loader's reason.
package struct AccessGrant: Sendable, Equatable {
    /// Who a grant is for, as the command line names it: paths as given, before resolving.
    package enum Subject: Sendable, Equatable {
        case flatpak(String)
        case snap(String)
        case systemUnit(String)
        case executable(String, script: String?)
    }

    package let subject: Subject
    /// Never empty; the first is where adds without a group go.
    package let keychainAccessGroups: [String]
    package let applicationIdentifier: String?

    package init(subject: Subject, keychainAccessGroups: [String], applicationIdentifier: String?) {
        self.subject = subject
        self.keychainAccessGroups = keychainAccessGroups
        self.applicationIdentifier = applicationIdentifier
    }

    /// The rule file's text. An executable's and a script's SHA-256 are computed from the files
    /// as they are now; a file that cannot be read whole is refused here (`source` names the
    /// file the rule was meant for, in the problem).
    package func ruleText(source: String) throws(PolicyProblem) -> String {
        var lines = ["# Written by keychainctl grant-access; keychainctl revoke-access removes it."]
        func line(_ key: AccessRule.Key, _ value: String) { lines.append("\(key.rawValue) = \(value)") }
        switch subject {
        case .flatpak(let id): line(.flatpak, id)
        case .snap(let name): line(.snap, name)
        case .systemUnit(let unit): line(.systemUnit, unit)
        case .executable(let executable, let script):
            line(.executable, executable)
            line(.executableSHA256, try Self.digest(of: executable, what: "executable", source: source))
            if let script {
                line(.script, script)
                line(.scriptSHA256, try Self.digest(of: script, what: "script", source: source))
            }
        }
        if let applicationIdentifier { line(.applicationIdentifier, applicationIdentifier) }
        line(.keychainAccessGroups, keychainAccessGroups.joined(separator: ", "))
        return lines.joined(separator: "\n") + "\n"
    }

    /// The file name in the folder: the kind of subject and its name, with every character but
    /// letters, digits, `.`, `-` and `_` replaced by `_` (a path's slashes by `-`), and a digest
    /// of the whole subject in place of the end of a name too long for a file system. Two
    /// subjects can meet on one name (`a:b` and `a_b`); a grant checks what the file names
    /// before it replaces it.
    package var fileName: String {
        let stem: String
        switch subject {
        case .flatpak(let id): stem = "flatpak-" + Self.safe(id)
        case .snap(let name): stem = "snap-" + Self.safe(name)
        case .systemUnit(let unit): stem = "system-unit-" + Self.safe(unit)
        case .executable(let executable, let script):
            stem = "executable-" + Self.safe(Self.resolved(executable))
                + (script.map { "-script-" + Self.safe(Self.resolved($0)) } ?? "")
        }
        let longest = 200
        guard stem.utf8.count > longest else { return stem + ".conf" }
        let digest = ExecutableFile.hexadecimal(SHA256.hash(data: Array(stem.utf8))).prefix(16)
        return String(stem.prefix(longest - 17)) + "-" + digest + ".conf"
    }

    /// Whether `rule`, as the loader read it, is for this grant's caller: the same sandbox id or
    /// unit, or the same resolved executable (and script), whatever digests either names.
    package func isFor(_ rule: AccessRule.Subject) -> Bool {
        switch (subject, rule) {
        case (.flatpak(let mine), .flatpak(let theirs)), (.snap(let mine), .snap(let theirs)),
             (.systemUnit(let mine), .systemUnit(let theirs)):
            return mine == theirs
        case (.executable(let executable, let script), .executable(let theirs, let theirScript)):
            return Self.resolved(executable) == theirs.path && script.map(Self.resolved) == theirScript?.path
        default:
            return false
        }
    }

    /// How messages name the caller: "the Flatpak app org.example.A", "/usr/bin/python3.11
    /// running /opt/tool.py".
    package var callerDescription: String {
        switch subject {
        case .flatpak(let id): return "the Flatpak app \(id)"
        case .snap(let name): return "the snap \(name)"
        case .systemUnit(let unit): return "the system unit \(unit)"
        case .executable(let executable, let script):
            return "the executable \(executable)" + (script.map { " running the script \($0)" } ?? "")
        }
    }

    /// `path` as the loader resolves it (symbolic links followed), or as given when it cannot be.
    static func resolved(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func safe(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "/": if !result.isEmpty { result.append("-") }
            case "a"..."z", "A"..."Z", "0"..."9", ".", "-", "_": result.unicodeScalars.append(scalar)
            default: result.append("_")
            }
        }
        return result.isEmpty ? "_" : result
    }

    private static func digest(of path: String, what: String, source: String) throws(PolicyProblem) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard descriptor >= 0 else {
            throw PolicyProblem(file: source, reason: "the \(what) \(path) cannot be opened (\(String(cString: strerror(errno))))")
        }
        defer { close(descriptor) }
        guard let digest = ExecutableFile.sha256(of: descriptor) else {
            throw PolicyProblem(file: source, reason: "the \(what) \(path) cannot be hashed: it is not a regular file, "
                                + "cannot be read, or is larger than \(ExecutableFile.largestHashedFile / (1024 * 1024)) MiB")
        }
        return digest
    }
}
