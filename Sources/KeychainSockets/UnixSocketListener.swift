import CKeychainSystem
import Foundation
import KeychainLocking
#if canImport(Glibc)
import Glibc
#endif

/// Why a listening socket could not be made.
package struct UnixSocketError: Error, CustomStringConvertible, Sendable {
    package let description: String

    package init(description: String) { self.description = description }
}

/// A listening Unix stream socket as keychaind's doors (the SSH agent, the keeper) make them: a
/// stale socket left by a daemon that did not stop cleanly replaced, anything else at the path
/// refused.
///
/// A door of one user (``Admission/sameUser``) is in a folder only that user can enter (0700,
/// the socket 0600), and every accepted connection is checked with `SO_PEERCRED` before
/// anything is read from it: a process of another user is disconnected whatever the file modes
/// let through. The system keeper's door (``Admission/everyUser``) is open to all (folder 0755,
/// socket 0666) and tells its users apart by the same `SO_PEERCRED`.
package final class UnixSocketListener: Sendable {
    /// Whose connections are served.
    package enum Admission: Sendable {
        case sameUser
        case everyUser

        var folderMode: mode_t { self == .sameUser ? 0o700 : 0o755 }
        var socketMode: mode_t { self == .sameUser ? 0o600 : 0o666 }
    }

    package let socketPath: String
    let descriptor: Int32
    let admission: Admission
    /// False for a socket a service manager made (``init(activated:admission:)``): its file is
    /// the manager's, and stays when this listener stops.
    let ownsSocketFile: Bool
    private let stopped = Locked(false)

    /// Makes the folder (or checks the one there: a directory of ours, not a link, then set to
    /// the admission's mode), replaces a stale socket, binds and listens.
    package init(socketPath: String, backlog: Int32 = 64, admission: Admission = .sameUser) throws(UnixSocketError) {
        self.socketPath = socketPath
        self.admission = admission
        let folder = (socketPath as NSString).deletingLastPathComponent
        if mkdir(folder, admission.folderMode) != 0 && errno != EEXIST {
            throw UnixSocketError(description: "cannot create \(folder): \(String(cString: strerror(errno)))")
        }
        var info = stat()
        guard lstat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == geteuid() else {
            throw UnixSocketError(description: "\(folder) is not a folder of this user")
        }
        guard chmod(folder, admission.folderMode) == 0 else {
            throw UnixSocketError(description: "cannot set the mode of \(folder)")
        }
        if lstat(socketPath, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFSOCK, unlink(socketPath) == 0 else {
                throw UnixSocketError(description: "\(socketPath) exists and is not a socket")
            }
        }
        guard var address = UnixSocketAddress(path: socketPath) else {
            throw UnixSocketError(description: "the socket path is too long")
        }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw UnixSocketError(description: "no socket: \(String(cString: strerror(errno)))") }
        let bound = address.withSocketAddress { bind(descriptor, $0, $1) }
        // For one user's door the folder already keeps others out; 0600 on the socket says the
        // same a second time.
        guard bound == 0, chmod(socketPath, admission.socketMode) == 0, listen(descriptor, backlog) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw UnixSocketError(description: "cannot listen on \(socketPath): \(reason)")
        }
        self.descriptor = descriptor
        ownsSocketFile = true
    }

    /// Serves a listening socket the service manager passed (``SocketActivation``), which made
    /// it and set its folder's and its own modes; connections are admitted as by a socket made
    /// here (`SO_PEERCRED`).
    package init(activated descriptor: Int32, admission: Admission = .sameUser) {
        self.descriptor = descriptor
        self.admission = admission
        socketPath = SocketActivation.boundPath(descriptor) ?? "(a socket passed by the service manager)"
        ownsSocketFile = false
    }

    /// Accepts connections on a thread named `name` until ``stop()``. Each connection admitted is handed to `serve` on a thread of its own (a prompt or a slow client on one does
    /// not hold up the others), which owns it and must close it. `idle` runs when a second has
    /// passed without a connection. `report` hears of refused peers, never of what was sent.
    package func start(name: String, report: @escaping @Sendable (String) -> Void,
                       idle: @escaping @Sendable () -> Void = {},
                       serve: @escaping @Sendable (_ connection: Int32, _ peer: PeerCredentials) -> Void) {
        let thread = Thread { [self] in acceptLoop(report: report, idle: idle, serve: serve) }
        thread.name = name
        thread.start()
    }

    /// Stops accepting and removes the socket. Connections already open finish their message.
    package func stop() {
        let wasStopped = stopped.withLock { value in
            defer { value = true }
            return value
        }
        guard !wasStopped else { return }
        if ownsSocketFile { unlink(socketPath) }
        shutdown(descriptor, Int32(SHUT_RDWR))
    }

    private var isStopped: Bool { stopped.withLock { $0 } }

    private func acceptLoop(report: @Sendable (String) -> Void, idle: @Sendable () -> Void,
                            serve: @escaping @Sendable (Int32, PeerCredentials) -> Void) {
        while !isStopped {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, 1000)
            if isStopped { break }
            if ready == 0 {
                idle()
                continue
            }
            // Close-on-exec from the start: a pinentry another thread starts must not inherit it.
            let connection = cks_accept_cloexec(descriptor)
            if connection < 0 {
                if errno == EINTR || errno == ECONNABORTED || errno == EAGAIN { continue }
                if isStopped { break }
                report("accept failed: \(String(cString: strerror(errno)))")
                usleep(100_000)
                continue
            }
            var peer = PeerCredentials(processID: 0, userID: 0, groupID: 0)
            guard cks_peer_credentials(connection, &peer.processID, &peer.userID, &peer.groupID) == 0,
                  admission == .everyUser || peer.userID == geteuid() else {
                report("refused a connection from uid \(peer.userID) (pid \(peer.processID))")
                close(connection)
                continue
            }
            let admitted = peer
            let thread = Thread { serve(connection, admitted) }
            // Threads that wait on an idle client need little stack: 1,000 idle connections
            // should not reserve 8 GiB of address space.
            thread.stackSize = 1 << 20
            thread.start()
        }
        close(descriptor)
    }
}

/// What `SO_PEERCRED` says of a connection's peer, as it was at `connect()`.
package struct PeerCredentials: Sendable, Equatable {
    package var processID: Int32
    package var userID: UInt32
    package var groupID: UInt32
}
