import ArgumentParser
import KeychainCallerIdentity
import KeychainServices

/// `revoke-access`: removes the rule files that name one program.
struct RevokeAccess: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke-access",
        abstract: "Take away the access groups a rule of keychaind's policy folder gives a program.",
        discussion: """
            Removes every rule file of the policy folder that names the program (the one \
            grant-access wrote, and any other naming it, whatever digest it gives), so that it \
            is back to its default: a Flatpak app or snap its own group only, a host program the \
            shared group. No rule for it exits 44 (errSecItemNotFound). keychaind applies it from \
            the program's next connection on. Not in macOS's `security`.
            """)

    @OptionGroup var subject: AccessSubjectOptions

    @OptionGroup var location: PolicyFolderOption

    func run() throws {
        let folder = try location.folder()
        let grant = AccessGrant(subject: subject.subject, keychainAccessGroups: [], applicationIdentifier: nil)
        var removed: [String] = []
        // The file grant-access writes, even if keychaind refuses it now (an executable that is gone).
        if folder.holdsFile(grant.fileName) { try remove(grant.fileName, from: folder, into: &removed) }
        // Then every rule keychaind reads for the program; a duplicate it refused while an earlier
        // file named the program is read once that one is gone, so read again until none is left.
        while true {
            let (policy, problems) = folder.load()
            if let problem = problems.first(where: { $0.file == folder.path }) {
                throw CommandFailure(status: errSecIO, context: "revoke-access", message: "\(problem).", hint: nil)
            }
            let named = policy.rules.filter { grant.isFor($0.subject) }.map(\.source).filter { !removed.contains($0) }
            if named.isEmpty { break }
            for source in named { try remove(String(source.dropFirst(folder.path.count + 1)), from: folder, into: &removed) }
        }
        guard !removed.isEmpty else {
            throw CommandFailure(status: errSecItemNotFound, context: "revoke-access",
                                 message: "no rule in \(folder.path) names \(grant.callerDescription).",
                                 hint: "list-access-rules shows the rules there.")
        }
        for file in removed { Console.out("Removed \(file).\n") }
        Console.out("\(grant.callerDescription.capitalisedFirst) has no rule now; "
                    + "keychaind applies it to the program's connections from now on.\n")
    }

    private func remove(_ name: String, from folder: PolicyFolder, into removed: inout [String]) throws {
        do throws(PolicyProblem) {
            try folder.remove(name)
        } catch {
            throw CommandFailure(status: errSecIO, context: "revoke-access", message: "\(error).", hint: nil)
        }
        removed.append(folder.path + "/" + name)
    }
}
