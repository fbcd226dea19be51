import KeychainDaemon
import KeychainStore
import Logging

/// keychaind's keeper socket (`--keeper`): the login keychain, held for served processes.
enum KeeperService {
    struct NoRuntimeFolder: Error, CustomStringConvertible {
        var description: String { "--keeper needs XDG_RUNTIME_DIR, the user's runtime folder" }
    }

    /// Serves the keeper on `activated`, a socket the service manager passed, or else on the
    /// session's socket, made here.
    static func start(file: KeychainFile, activated: Int32?, logger: Logger) throws -> KeeperServer {
        guard let path = activated == nil ? KeychainKeeper.defaultSocketPath() : "" else {
            logger.critical("--keeper needs XDG_RUNTIME_DIR, the user's runtime folder")
            throw NoRuntimeFolder()
        }
        let server: KeeperServer
        do {
            let prompter = PinentryPrompter()
            server = try KeeperServer(keychains: OneKeychain(file: file), socketPath: path, activated: activated, callerPolicy: .ofThisUser(),
                                  logger: logger) { caller in
                // Named as the kernel shows the caller, shown as the Secret Service's prompts show it.
                let program = CallerProgram.describe(caller)
                return PinentryAuthenticator(prompter: prompter, subject: "keeper client \(caller.processID)", logger: logger) { request in
                    PinentryAuthenticator.keeperDescription(program: program, reason: request.reason)
                }
            }
        } catch {
            logger.critical("the keeper could not listen", metadata: ["error": "\(error)"])
            throw error
        }
        server.start()
        logger.info("serving the keeper", metadata: ["socket": "\(server.socketPath)", "activated": "\(activated != nil)"])
        return server
    }
}
