import Foundation
import KeychainAuthentication
import KeychainCallerIdentity
import KeychainDaemon
import KeychainSSHAgent
import KeychainStore
import Logging

/// keychaind's SSH agent (`--ssh-agent`, docs/ssh-agent.md): the login keychain's SSH keys served
/// on `$XDG_RUNTIME_DIR/keychain/ssh-agent`, with confirmations asked through pinentry.
enum SSHAgentService {
    /// Starts serving and prints the line that points a shell at the agent, as ssh-agent prints it.
    static func start(file: KeychainFile, logger: Logger) throws -> SSHAgentServer {
        guard let path = SSHAgentServer.defaultSocketPath() else {
            logger.critical("--ssh-agent needs XDG_RUNTIME_DIR, the user's runtime folder")
            throw SSHAgentServerError(description: "no XDG_RUNTIME_DIR")
        }
        let prompter = PinentryPrompter()
        let agent = SSHAgent(keys: SSHKeychainKeys(context: KeychainContext(file: file, identity: .unconfigured)),
                             confirm: { comment, keyType, program in
            let answer = prompter.askPassword(PasswordRequest(
                description: "\(program) asks the SSH key \(CallerProgram.quoted(comment)) (\(keyType)) to sign. Allow it?",
                confirmation: "Allow", refusal: "Deny"))
            logger.info("ssh-agent confirmation", metadata: ["key": "\(comment)", "answer": "\(answer)"])
            if case .confirmed = answer { return true }
            return false
        }, presencePrompt: { comment, program in
            PinentryAuthenticator(prompter: prompter, subject: "ssh-agent key \(comment)", logger: logger) { _ in
                "\(program) asks the SSH key \(CallerProgram.quoted(comment)) to sign, which needs your keychain password."
            }
        })
        let server: SSHAgentServer
        do {
            // Each connection's caller from the kernel and the caller policy, as the keeper's:
            // a program sees and adds only the keys of its own access groups.
            let policy = CallerPolicy.ofThisUser()
            server = try SSHAgentServer(agent: agent, socketPath: path, identify: { connection in
                switch policy.identify(socket: connection, door: "ssh-agent", logger: logger) {
                case .success(let (caller, identity)):
                    let process = caller.process
                    return SSHAgentCaller(identity: identity, program: CallerProgram.describe(caller), hasExited: { process.hasExited })
                case .failure(let error):
                    logger.notice("an ssh-agent client could not be identified", metadata: ["reason": "\(error)"])
                    return nil
                }
            }, report: { event in
                logger.notice("ssh-agent: \(event)")
            })
        } catch {
            logger.critical("the SSH agent could not listen", metadata: ["error": "\(error)"])
            throw error
        }
        server.start()
        // Unbuffered, so that a parent reading the line gets it while keychaind runs on.
        FileHandle.standardOutput.write(Data((server.environmentLine + "\n").utf8))
        logger.info("serving the SSH agent", metadata: ["socket": "\(path)"])
        return server
    }
}
