import ArgumentParser
import Foundation
import KeychainCallerIdentity

/// `list-access-rules`: what keychaind's policy folder holds, as keychaind reads it.
struct ListAccessRules: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list-access-rules",
        abstract: "List the rules that give programs access groups, and the files keychaind refuses.",
        discussion: """
            Reads the policy folder as keychaind does and prints, for each \
            rule file in byte order of names, its path and then the rule: whom it names (a \
            Flatpak app, a snap, a system unit, or an executable with its resolved path and \
            SHA-256, and the script for an interpreter), its application identifier and its \
            keychain access groups, the default first. A file keychaind refuses is printed with \
            `refused:` and the reason. Not in macOS's `security`.
            """)

    @OptionGroup var location: PolicyFolderOption

    @Flag(name: .customLong("json"), help: "Print one JSON object: the folder, its rules and the refused files (sorted keys).")
    var json = false

    func run() throws {
        let folder = try location.folder()
        let (policy, problems) = folder.load()
        if json {
            let object: [String: Any] = [
                "folder": folder.path,
                "rules": policy.rules.map(AccessRuleText.object),
                "refused": problems.map { ["file": $0.file, "reason": $0.reason] },
            ]
            Console.out(ItemJSON.text(object))
            return
        }
        var entries = policy.rules.map { (file: $0.source, lines: AccessRuleText.lines($0)) }
        entries += problems.map { (file: $0.file, lines: ["refused: " + $0.reason]) }
        guard !entries.isEmpty else {
            let exists = FileManager.default.fileExists(atPath: folder.path)
            Console.out("No rules in \(folder.path)\(exists ? "" : " (there is no such folder)").\n")
            return
        }
        for entry in entries.sorted(by: { $0.file.utf8.lexicographicallyPrecedes($1.file.utf8) }) {
            Console.out(entry.file + "\n" + entry.lines.map { "    " + $0 + "\n" }.joined())
        }
    }
}

/// How keychainctl shows a rule: its file's `key = value` lines, with paths resolved as keychaind
/// matches them, and its JSON object.
enum AccessRuleText {
    static func lines(_ rule: AccessRule) -> [String] {
        var lines: [String]
        switch rule.subject {
        case .flatpak(let id): lines = ["flatpak = \(id)"]
        case .snap(let name): lines = ["snap = \(name)"]
        case .systemUnit(let unit): lines = ["system-unit = \(unit)"]
        case .executable(let executable, let script):
            lines = pinned("executable", executable) + (script.map { pinned("script", $0) } ?? [])
        }
        if let identifier = rule.applicationIdentifier { lines.append("application-identifier = \(identifier)") }
        lines.append("keychain-access-groups = " + rule.keychainAccessGroups.joined(separator: ", "))
        return lines
    }

    static func object(_ rule: AccessRule) -> [String: Any] {
        var object: [String: Any] = ["file": rule.source, "keychainAccessGroups": rule.keychainAccessGroups]
        switch rule.subject {
        case .flatpak(let id): object["flatpak"] = id
        case .snap(let name): object["snap"] = name
        case .systemUnit(let unit): object["systemUnit"] = unit
        case .executable(let executable, let script):
            object["executable"] = pinnedObject(executable)
            if let script { object["script"] = pinnedObject(script) }
        }
        if let identifier = rule.applicationIdentifier { object["applicationIdentifier"] = identifier }
        return object
    }

    private static func pinned(_ key: String, _ file: AccessRule.Pinned) -> [String] {
        ["\(key) = \(file.path)"] + (file.sha256.map { ["\(key)-sha256 = \($0)"] } ?? [])
    }

    private static func pinnedObject(_ file: AccessRule.Pinned) -> [String: Any] {
        var object: [String: Any] = ["path": file.path]
        if let digest = file.sha256 { object["sha256"] = digest }
        return object
    }
}
