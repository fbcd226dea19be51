import CKeychainSystem
import Foundation
import KeychainCallerIdentity
import KeychainDaemon
import KeychainStore
import Logging
#if canImport(Glibc)
import Glibc
#endif

/// `keychaind --system`: the machine's keeper (docs/design-notes.md, "The system keeper"). It
/// starts as root, makes its state folder its own user's and listens on a socket every user may
/// connect to, then becomes that user for good, keeping only CAP_SYS_PTRACE to tell callers
/// apart (``cks_become_service_user``). Each user's calls run on that user's keychain, which
/// sits in a folder no process of the user can enter.
enum SystemKeeperService {
    struct StartFailure: Error, CustomStringConvertible {
        let description: String
    }

    struct Settings {
        var serviceUser: String
        var stateFolder: String
        var socketPath: String
        /// A listening socket the service manager passed, served instead of making `socketPath`.
        var activated: Int32?
        var policyFolder: String
    }

    static func start(_ settings: Settings, logger: Logger) throws(StartFailure) -> KeeperServer {
        guard geteuid() == 0 else {
            throw StartFailure(description: "--system starts as root (it becomes \(settings.serviceUser) once its socket is made)")
        }
        guard let account = getpwnam(settings.serviceUser) else {
            throw StartFailure(description: "no user \(settings.serviceUser): the Debian package and scripts/install.sh create it (useradd --system)")
        }
        let uid = account.pointee.pw_uid, gid = account.pointee.pw_gid
        guard uid != 0 else { throw StartFailure(description: "--service-user must not be root") }
        try prepareStateFolder(settings.stateFolder, uid: uid, gid: gid)
        let server: KeeperServer
        do {
            server = try KeeperServer(keychains: SystemKeychains(stateFolder: URL(fileURLWithPath: settings.stateFolder)),
                                      socketPath: settings.socketPath, activated: settings.activated, admission: .everyUser,
                                      callerPolicy: CallerPolicy(folder: PolicyFolder(path: settings.policyFolder, owner: .root)),
                                      logger: logger)
        } catch {
            throw StartFailure(description: "the system keeper could not listen: \(error)")
        }
        // Before any thread of ours starts: threads made from here on inherit these credentials.
        guard cks_become_service_user(uid, gid) == 0 else {
            let reason = String(cString: strerror(errno))
            server.stop()
            throw StartFailure(description: "could not become \(settings.serviceUser): \(reason)")
        }
        // Unlocks go to a session keyring of the keeper's own, not the one it was started in.
        if cks_join_new_session_keyring() != 0 {
            logger.warning("no session keyring of the keeper's own; unlocks are kept in its memory only",
                           metadata: ["errno": "\(errno)"])
        }
        server.start()
        logger.info("serving the system keeper", metadata: [
            "socket": "\(server.socketPath)", "state": "\(settings.stateFolder)", "user": "\(settings.serviceUser)",
        ])
        return server
    }

    /// The state folder, made if missing, owned by the service user and entered by no one else.
    /// A link or a file at the path is refused rather than followed or replaced.
    private static func prepareStateFolder(_ path: String, uid: uid_t, gid: gid_t) throws(StartFailure) {
        guard path.hasPrefix("/") else { throw StartFailure(description: "--state-directory must be an absolute path") }
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw StartFailure(description: "cannot create \(path): \(String(cString: strerror(errno)))")
        }
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw StartFailure(description: "\(path) is not a folder")
        }
        guard chown(path, uid, gid) == 0, chmod(path, 0o700) == 0 else {
            throw StartFailure(description: "cannot give \(path) to the service user: \(String(cString: strerror(errno)))")
        }
    }
}
