import ArgumentParser
import Foundation
import KeychainCallerIdentity
import KeychainDaemon
import KeychainDBus
import KeychainSecretService
import KeychainSockets
import KeychainStore
import KeychainctlCommandLine
import Logging
#if canImport(Glibc)
import Glibc
#endif

/// `keychaind`: serves the keychain as the session's Secret Service (`org.freedesktop.secrets`).
@main
struct Keychaind: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keychaind",
        abstract: "Serve the keychain to every program of the session as the freedesktop Secret Service.",
        discussion: """
        Connects to the session bus named by DBUS_SESSION_BUS_ADDRESS, takes the name \
        org.freedesktop.secrets and serves, until SIGTERM or SIGINT, the login keychain (the same \
        file keychainctl and the library use, SWIFT_KEYCHAIN_PATH or the default) as the collection \
        'login', with the aliases 'default' and 'login', an in-memory collection 'session', and \
        every other keychain of the keychains folder under its name, as keychains are created \
        there and deleted while it runs. Each client sees the items of the access groups its \
        identity earns (docs/isolation.md). A locked keychain is unlocked through pinentry \
        (SWIFT_KEYCHAIN_PINENTRY, else 'pinentry' on the PATH). With --keeper and --ssh-agent it \
        also serves those sockets; with --no-secret-service it serves only them and needs no \
        session bus (a server, a login without D-Bus). Started by its service manager with a \
        listening socket (systemd's socket activation, keychaind.socket), it is the keeper on that \
        socket. With --system it is instead the machine's keeper: started as root, it becomes \
        --service-user and serves every user's SecItem calls (SWIFT_KEYCHAIN_KEEPER=system) on \
        that user's keychain, kept in --state-directory where the user's own processes cannot \
        reach it; socket-activated, on the socket passed. Logs go to standard error.
        """,
        version: "keychaind \(PackageVersion.current)")

    @Flag(help: "Take the name over from the provider that has it (gnome-keyring, KeePassXC, …).")
    var replace = false

    @Flag(inversion: .prefixedNo,
          help: "Whether to keep each keychain served in step with its sync group, if it joined one, by running `keychain-sync watch` beside it. On unless --no-sync is given.")
    var sync = true

    @Flag(inversion: .prefixedNo,
          help: "After a search that found a secret, watch the bus for up to half a millisecond without sleeping for the request that reads it (quicker lookups on a machine with more than one processor; --no-follow-up-watch saves that processor time).")
    var followUpWatch = true

    @Flag(help: "Also serve the SSH agent protocol with the login keychain's SSH keys on $XDG_RUNTIME_DIR/keychain/ssh-agent, and print the SSH_AUTH_SOCK line to set (docs/ssh-agent.md).")
    var sshAgent = false

    @Flag(help: "Also be the keeper: answer the SecItem calls of programs run with SWIFT_KEYCHAIN_KEEPER=served on $XDG_RUNTIME_DIR/keychain/keeper, each with the access groups its identity earns (docs/isolation.md).")
    var keeper = false

    @Option(help: "Log level: trace, debug, info, notice, warning, error or critical.")
    var logLevel: String = "info"

    @Flag(inversion: .prefixedNo,
          help: "Whether to serve the Secret Service on the session bus. With --no-secret-service no bus is needed, and only --keeper and --ssh-agent are served.")
    var secretService = true

    @Flag(help: "Be the machine's keeper instead: serve every user's SecItem calls on the keychain it holds for that user (docs/design-notes.md, \"The system keeper\"). Starts as root; no session bus, SSH agent or sync.")
    var system = false

    @Option(help: "With --system: the user the keeper becomes once its socket is made.")
    var serviceUser = "swift-keychain"

    @Option(help: "With --system: where each user's keychain and device key are kept (STATE/users/UID/).")
    var stateDirectory = "/var/lib/swift-keychain"

    @Option(help: "With --system: the socket to serve.")
    var socket = KeychainKeeper.systemSocketPath

    @Option(help: "With --system: the root-owned folder of caller rules (docs/isolation.md).")
    var policyFolder = PolicyFolder.system.path

    func validate() throws {
        if system && (keeper || sshAgent || replace) {
            throw ValidationError("--system serves only the system keeper: --keeper, --ssh-agent and --replace do not go with it.")
        }
        if !system && !secretService && !keeper && !sshAgent {
            throw ValidationError("--no-secret-service leaves nothing to serve: give --keeper, --ssh-agent or both.")
        }
    }

    func run() throws {
        guard let level = Logger.Level(rawValue: logLevel) else {
            throw ValidationError("unknown log level '\(logLevel)'")
        }
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        sigaddset(&stopSignals, SIGTERM)
        sigaddset(&stopSignals, SIGINT)
        pthread_sigmask(SIG_BLOCK, &stopSignals, nil)
        // A prompter or a client that goes away while we write to it must be an error on that
        // write, not the end of the daemon.
        signal(SIGPIPE, SIG_IGN)
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "keychaind")
        // A socket the service manager made for the keeper, passed at the first connection.
        let activated: Int32?
        do {
            activated = try SocketActivation.takeListener()
        } catch {
            logger.critical("\(error.description)")
            throw ExitCode(1)
        }
        if system {
            let server: KeeperServer
            do {
                server = try SystemKeeperService.start(.init(serviceUser: serviceUser, stateFolder: stateDirectory,
                                                             socketPath: socket, activated: activated, policyFolder: policyFolder),
                                                       logger: logger)
            } catch {
                logger.critical("\(error.description)")
                throw ExitCode(1)
            }
            waitForStopSignal(stopSignals, logger: logger)
            server.stop()
            logger.info("stopped")
            return
        }
        let path = KeychainPaths.defaultKeychain()
        let file: KeychainFile
        do {
            file = try KeychainFile.open(at: path)
        } catch {
            logger.critical("the keychain could not be opened", metadata: [
                "path": "\(path.path)", "status": "\(error.status)", "reason": "\(error.reason)",
            ])
            throw ExitCode(1)
        }
        let sshAgentServer = sshAgent ? try SSHAgentService.start(file: file, logger: logger) : nil
        defer { sshAgentServer?.stop() }
        // Given a socket by the service manager, keychaind is the keeper on it, --keeper or not.
        let keeperServer = keeper || activated != nil ? try KeeperService.start(file: file, activated: activated, logger: logger) : nil
        defer { keeperServer?.stop() }
        guard secretService else {
            // Only the sockets: their listeners answer on threads of their own; this thread
            // waits for the signal that stops them.
            let syncing = sync ? SyncSupervision(logger: logger) : nil
            syncing?.supervise(path)
            logger.info("serving without the Secret Service", metadata: ["keychain": "\(path.path)"])
            waitForStopSignal(stopSignals, logger: logger)
            syncing?.stopAll()
            logger.info("stopped")
            return
        }
        let connection: DBusConnection
        do {
            connection = try DBusConnection.session()
        } catch {
            logger.critical("no session bus: is DBUS_SESSION_BUS_ADDRESS set?", metadata: ["error": "\(error)"])
            throw ExitCode(1)
        }
        connection.watchesForFollowUps = followUpWatch
        // Every keychain served is kept in step with its sync group once it joins one.
        let syncing = sync ? SyncSupervision(logger: logger) : nil
        let service = SecretService(
            connection: connection,
            collections: [(SecretServiceNames.loginCollection, KeychainCollection(file: file, label: SecretServiceNames.loginLabel)),
                          (SecretServiceNames.sessionCollection, MemoryCollection(label: "Session"))],
            prompter: PinentryPrompter(), logger: logger, callerPolicy: .ofThisUser(),
            aliasFile: AliasFile(url: KeychainNames.keychainsFolder().appendingPathComponent(AliasFile.fileName)),
            makeCollection: { name, label, password in
                // `login` is asked for only while the login keychain's file is missing.
                let url = name == SecretServiceNames.loginCollection ? path : KeychainNames.fileToCreate(name)
                // A file there that is not served is one that does not open: never overwritten.
                if FileManager.default.fileExists(atPath: url.path) { return .nameTaken }
                do throws(KeychainStoreError) {
                    let created = try KeychainFile.open(at: url)
                    if let password { try created.setPassword(password, currentPassword: nil) }
                    syncing?.supervise(created.url)
                    return .created(KeychainCollection(file: created, label: label))
                } catch {
                    logger.error("a keychain could not be created", metadata: ["name": "\(name)", "status": "\(error.status)"])
                    return .failed
                }
            })
        try service.register()
        // The other keychains of the keychains folder, each a collection named after its file,
        // served before the name is taken and followed as they come and go.
        let folderWatch = KeychainFolderWatch(service: service, login: path, syncing: syncing, logger: logger)
        folderWatch.start()
        connection.onNameLost { name in
            logger.notice("another provider took the name over; stopping", metadata: ["name": "\(name)"])
            connection.stop()
        }
        // "serving" is said only once the name is ours: clients reach us only then.
        let announceServing: @Sendable () -> Void = {
            logger.info("serving", metadata: ["name": "\(SecretServiceNames.busName)", "keychain": "\(path.path)"])
        }
        // With --replace: take the name, or, from a provider that does not allow that
        // (gnome-keyring), wait in the bus's queue and serve as soon as it leaves: the bus then
        // sends NameAcquired, handled by the loop below.
        let ownsName: Bool
        switch try connection.requestName(SecretServiceNames.busName, replace: replace, allowReplacement: true, queue: replace) {
        case .primaryOwner, .alreadyOwner:
            ownsName = true
        case .inQueue:
            ownsName = false
            try connection.subscribe(path: "/org/freedesktop/DBus", interface: DBusConnection.busName, member: "NameAcquired") { signal in
                guard signal.sender == DBusConnection.busName, signal.arguments == [.string(SecretServiceNames.busName)] else { return }
                announceServing()
            }
            logger.notice("\(NameQueue.queuedNotice(for: SecretServiceNames.busName, on: connection))")
        case .exists:
            logger.critical("another provider owns \(SecretServiceNames.busName); run with --replace to take it over")
            throw ExitCode(1)
        }
        // SIGTERM and SIGINT are taken by one thread with sigwait, so they are blocked
        // everywhere else (threads started from here on inherit the mask). This also works when
        // a parent started us with them blocked.
        let waited = stopSignals
        let waiter = Thread {
            var signals = waited
            var signalNumber: Int32 = 0
            guard sigwait(&signals, &signalNumber) == 0 else { return }
            logger.info("stopping on a signal", metadata: ["signal": "\(signalNumber)"])
            connection.stop()
        }
        waiter.start()
        if ownsName { announceServing() }
        syncing?.supervise(path)
        // Calls are answered one at a time on this thread; stop() lets the one in progress finish,
        // so a signal never interrupts a write halfway (each is one keychain transaction anyway).
        connection.run()
        folderWatch.stop()
        syncing?.stopAll()
        logger.info("stopped")
    }

    /// Waits on this thread for SIGTERM or SIGINT (blocked in every thread, so only this wait takes them).
    private func waitForStopSignal(_ stopSignals: sigset_t, logger: Logger) {
        var signals = stopSignals
        var signalNumber: Int32 = 0
        _ = sigwait(&signals, &signalNumber)
        logger.info("stopping on a signal", metadata: ["signal": "\(signalNumber)"])
    }
}
