import ArgumentParser
import KeychainCallerIdentity
import KeychainServices

/// `grant-access`: writes the rule that gives one program its access groups.
struct GrantAccess: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grant-access",
        abstract: "Give a program keychain access groups through keychaind's policy folder.",
        discussion: """
            Writes one rule file into keychaind's policy folder: the program named \
            by --flatpak, --snap, --system-unit or --executable (with --script for an \
            interpreter) is given the --access-group groups, the first where its adds go, and \
            --application-identifier if given. An executable's and a script's SHA-256 are \
            computed from the files now, so the rule stops matching when they change (run \
            grant-access again after an upgrade). The rule is checked by keychaind's own reader \
            before it is put in place, and refused with keychaind's reason (an interpreter \
            without --script, a name that is not valid, another file naming the same program); \
            refused, it exits 206 (errSecParam). Granting again for the same program replaces \
            its rule. keychaind applies it from the program's next connection on, without a \
            restart. Not in macOS's `security`.
            """)

    @OptionGroup var subject: AccessSubjectOptions

    @Option(name: .customLong("access-group"),
            help: ArgumentHelp("A group to grant (repeat it for more; the first is the default for adds).", valueName: "group"))
    var accessGroups: [String] = []

    @Option(name: .customLong("application-identifier"), help: ArgumentHelp("Apple's application-identifier entitlement to give.", valueName: "id"))
    var applicationIdentifier: String?

    @OptionGroup var location: PolicyFolderOption

    func validate() throws {
        if accessGroups.isEmpty { throw ValidationError("Name at least one --access-group.") }
    }

    func run() throws {
        let folder = try location.folder()
        let grant = AccessGrant(subject: subject.subject, keychainAccessGroups: accessGroups, applicationIdentifier: applicationIdentifier)
        let name = grant.fileName
        let target = folder.path + "/" + name
        let text: String
        let rule: AccessRule
        do throws(PolicyProblem) {
            text = try grant.ruleText(source: target)
            rule = try Self.check(text, as: name, for: grant, in: folder)
        } catch {
            throw Self.refusal(error, grant)
        }
        let replacing = folder.holdsFile(name)
        do throws(PolicyProblem) {
            try folder.write(text, as: name)
        } catch {
            throw CommandFailure(status: errSecIO, context: "grant-access \(target)", message: error.reason + ".", hint: nil)
        }
        let verb = replacing ? "Replaced the rule for \(grant.callerDescription) in" : "Granted \(grant.callerDescription) access in"
        Console.out("\(verb) \(target):\n" + AccessRuleText.lines(rule).map { "    " + $0 + "\n" }.joined()
                    + "keychaind applies it to the program's connections from now on.\n")
    }

    /// The rule keychaind will read from `text` as the file `name`, or why it would not: the
    /// folder's own reading with the file in place, which must accept it, keep every other rule
    /// it accepts now, and find no other file naming the same program.
    static func check(_ text: String, as name: String, for grant: AccessGrant, in folder: PolicyFolder) throws(PolicyProblem) -> AccessRule {
        let target = folder.path + "/" + name
        let now = folder.load()
        let (then, problems) = folder.load(withFile: name, holding: text)
        if let problem = problems.first(where: { $0.file == target || $0.file == folder.path }) { throw problem }
        guard let rule = then.rules.first(where: { $0.source == target }) else {
            throw PolicyProblem(file: target, reason: "is not read back")
        }
        if let held = now.policy.rules.first(where: { $0.source == target }), !grant.isFor(held.subject) {
            throw PolicyProblem(file: target, reason: "holds the rule of another program; remove it or grant under another name")
        }
        if let other = then.rules.first(where: { $0.source != target && grant.isFor($0.subject) }) {
            throw PolicyProblem(file: target, reason: "\(other.source) names the same program already (revoke-access removes it)")
        }
        let before = Set(now.problems.map(\.description))
        if let displaced = problems.first(where: { !before.contains($0.description) }) {
            throw PolicyProblem(file: target, reason: "in place, it would make keychaind refuse \(displaced)")
        }
        return rule
    }

    static func refusal(_ problem: PolicyProblem, _ grant: AccessGrant) -> CommandFailure {
        CommandFailure(status: errSecParam, context: "grant-access", message: "the rule for \(grant.callerDescription) is refused: \(problem).",
                       hint: nil)
    }
}
