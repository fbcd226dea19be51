/// The credential helpers by the program names git and docker run them under, so that one
/// program installed under several names (the Debian package links both names to
/// keychainctl-full) can tell which one it was started as.
package enum CredentialHelperProgram: String, Sendable, CaseIterable {
    case git = "git-credential-keychain"
    case docker = "docker-credential-keychain"

    /// The helper `argument0` (a process's first argument: a path or a bare name) names, or nil.
    package init?(argument0: String) {
        let name = argument0.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? argument0
        self.init(rawValue: name)
    }

    /// Runs this helper with `arguments` (without the program name) and returns its exit status.
    package func run(arguments: [String]) -> Int32 {
        HelperIO.hardenProcess()
        switch self {
        case .git: return GitCredentialHelper.run(arguments: arguments)
        case .docker: return DockerCredentialHelper.run(arguments: arguments)
        }
    }
}
