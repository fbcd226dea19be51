import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A listening socket made by a service manager and passed to keychaind when the first client
/// connected (systemd's socket activation: the `.socket` units in `dist/systemd`), so that the
/// daemon starts on demand and no call meets a keeper that is not there yet.
///
/// The protocol is systemd's: the passed descriptors start at 3, `LISTEN_FDS` says how many and
/// `LISTEN_PID` names the process they are for (a child that inherited the variables is not it).
package enum SocketActivation {
    /// The first passed descriptor.
    static let firstDescriptor: Int32 = 3

    /// Takes the one listening Unix stream socket passed to this process, or nil when none was.
    /// The variables are removed either way, so that a program keychaind starts does not take
    /// them for its own; call it before any thread starts. More than one socket, or a
    /// descriptor that is not a listening Unix stream socket, is an error: keychaind serves one.
    package static func takeListener(environment: [String: String] = ProcessInfo.processInfo.environment) throws(UnixSocketError) -> Int32? {
        defer { for name in ["LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"] { unsetenv(name) } }
        guard let pid = environment["LISTEN_PID"], pid == String(getpid()), let count = environment["LISTEN_FDS"] else { return nil }
        guard count == "1" else {
            throw UnixSocketError(description: "the service manager passed \(count) sockets; keychaind serves one (a single ListenStream=)")
        }
        let descriptor = firstDescriptor
        guard isListeningUnixStream(descriptor) else {
            throw UnixSocketError(description: "the descriptor the service manager passed is not a listening Unix stream socket")
        }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        return descriptor
    }

    /// Whether `descriptor` is a Unix stream socket that listens.
    static func isListeningUnixStream(_ descriptor: Int32) -> Bool {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ACCEPTCONN, &value, &length) == 0, value == 1 else { return false }
        length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_TYPE, &value, &length) == 0, value == Int32(SOCK_STREAM.rawValue) else { return false }
        length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_DOMAIN, &value, &length) == 0, value == AF_UNIX else { return false }
        return true
    }

    /// The path a Unix socket is bound to, or nil for an unnamed or abstract one.
    static func boundPath(_ descriptor: Int32) -> String? {
        var address = sockaddr_un()
        var length = socklen_t(MemoryLayout<sockaddr_un>.size)
        let named = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { return nil }
        let path = withUnsafeBytes(of: address.sun_path) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        return path.hasPrefix("/") ? path : nil
    }
}
