import KeychainCallerIdentity
import KeychainDaemon
import KeychainStore
import Logging

/// keychaind's keeper socket (`--keeper`): the login keychain, held for served processes.
enum KeeperService {
    struct NoRuntimeFolder: Error, CustomStringConvertible {
        var description: String { "--keeper needs XDG_RUNTIME_DIR, the user's runtime folder" }
    }

    static func start(file: KeychainFile, logger: Logger) throws -> KeeperServer {
        guard let path = KeychainKeeper.defaultSocketPath() else {
            logger.critical("--keeper needs XDG_RUNTIME_DIR, the user's runtime folder")
            throw NoRuntimeFolder()
        }
        let server: KeeperServer
        do {
            let prompter = PinentryPrompter()
            server = try KeeperServer(file: file, socketPath: path, callerPolicy: .ofThisUser(), logger: logger) { caller in
                // Named as the kernel shows the caller, as the Secret Service's prompts name it.
                let program = caller.executable?.path.map { "The program \($0)" } ?? "The program with process id \(caller.processID)"
                return PinentryAuthenticator(prompter: prompter, subject: "keeper client \(caller.processID)", logger: logger) { request in
                    let reason = request.reason.isEmpty ? "" : " It says: \u{201C}\(request.reason)\u{201D}."
                    return "\(program) wants to use an item of the keychain that requires your password each time.\(reason) "
                        + "Enter the keychain's password to allow it."
                }
            }
        } catch {
            logger.critical("the keeper could not listen", metadata: ["error": "\(error)"])
            throw error
        }
        server.start()
        logger.info("serving the keeper", metadata: ["socket": "\(path)"])
        return server
    }
}
