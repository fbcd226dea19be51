#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Foundation
import KeychainLocking
import KeychainSockets
import KeychainStore
#if canImport(Glibc)
import Glibc
#endif

/// A served process's side of the keeper: sends each SecItem call to keychaind and hands its
/// answer back as the call's status and result (docs/design-notes.md, "The keeper").
///
/// Connections are kept open between calls: the keeper resolves who is calling once per
/// connection (a pidfd, `/proc`, the executable's digest), which costs far more than a call. A
/// kept connection is checked before it is used again, so one the keeper closed (it restarted)
/// is never written to: a request is sent once, and never repeated, since the keeper may have
/// acted on it. A keeper that cannot be reached is `errSecNotAvailable` at once; the file is
/// never opened instead.
enum KeeperClient {
    private struct IdleConnection {
        let descriptor: Int32
        let socketPath: String
        /// A connection made before a fork belongs to the parent: the child makes its own.
        let processID: pid_t
    }

    private static let idle = Locked<[IdleConnection]>([])
    /// More concurrent callers than this close their connection after the call.
    private static let mostIdleConnections = 8

    /// Where this task's SecItem calls go: nil for a file of this process, else the keeper's
    /// socket, or the status of a keeper setting that cannot be used.
    static func route() -> Result<String, KeychainStoreError>? {
        do {
            guard let socket = try KeychainContext.keeperSocket() else { return nil }
            return .success(socket)
        } catch {
            return .failure(error)
        }
    }

    /// Sends one call; the result pointer receives the keeper's result, when asked for. The query
    /// is a dictionary, or for ``KeeperCall/Operation/addAll`` an array of them.
    static func send(_ operation: KeeperCall.Operation, _ query: AnyObject, changes: NSDictionary? = nil,
                     result: UnsafeMutablePointer<CFTypeRef?>?, to route: Result<String, KeychainStoreError>) -> OSStatus {
        let socketPath: String
        switch route {
        case .success(let path): socketPath = path
        case .failure(let error): return error.status
        }
        let call: KeeperCall
        do throws(KeeperValueError) {
            let changeValue: KeeperValue = if let changes { try KeeperValue(object: changes) } else { .null }
            call = KeeperCall(operation: operation, query: try KeeperValue(object: query), changes: changeValue, wantsResult: result != nil)
        } catch {
            return error.status
        }
        guard let connection = connection(to: socketPath) else { return errSecNotAvailable }
        guard SocketIO.writeAll(connection, SocketIO.lengthPrefixed(call.bytes)),
              case .message(let reply) = SocketIO.readMessage(connection, maximumLength: KeeperCall.maximumMessageLength) else {
            close(connection)
            return errSecNotAvailable
        }
        let answer: KeeperAnswer
        let object: AnyObject?
        do throws(KeeperValueError) {
            answer = try KeeperAnswer.read(reply)
            object = answer.result == .null ? nil : try answer.result.object()
        } catch {
            close(connection)
            return error.status
        }
        putBack(connection, socketPath: socketPath)
        if let result, let object { result.pointee = object }
        return answer.status
    }

    private static func connection(to socketPath: String) -> Int32? {
        let me = getpid()
        while let kept = idle.withLock({ $0.popLast() }) {
            if kept.processID == me, kept.socketPath == socketPath, isStillOpen(kept.descriptor) { return kept.descriptor }
            close(kept.descriptor)
        }
        return SocketIO.connect(to: socketPath)
    }

    private static func putBack(_ descriptor: Int32, socketPath: String) {
        let kept = idle.withLock { idle -> Bool in
            guard idle.count < mostIdleConnections else { return false }
            idle.append(IdleConnection(descriptor: descriptor, socketPath: socketPath, processID: getpid()))
            return true
        }
        if !kept { close(descriptor) }
    }

    /// An idle connection has nothing to read; readable means the keeper closed it (or sent
    /// what no request asked for, which makes it unusable as well).
    private static func isStillOpen(_ descriptor: Int32) -> Bool {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, 0) == 0
    }
}
#endif
