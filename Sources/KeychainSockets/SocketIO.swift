import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A `sockaddr_un` for a path, or nil when the path does not fit in one.
package struct UnixSocketAddress {
    // sockaddr_un is a Glibc type; it stays inside and only the pointer is handed out.
    private var address = sockaddr_un()

    package init?(path: String) {
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
    }

    mutating func withSocketAddress<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }
}

/// Blocking reads and writes of whole messages on a stream socket, retried across signals.
package enum SocketIO {
    /// A close-on-exec stream socket connected to `path`, or nil (errno set) when it cannot be.
    package static func connect(to path: String) -> Int32? {
        guard var address = UnixSocketAddress(path: path) else {
            errno = ENAMETOOLONG
            return nil
        }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        while true {
            let connected = address.withSocketAddress { Glibc.connect(descriptor, $0, $1) }
            if connected == 0 { return descriptor }
            if errno == EINTR { continue }
            let code = errno
            close(descriptor)
            errno = code
            return nil
        }
    }

    /// Exactly `count` bytes, or nil when the peer closed (or failed) first.
    package static func readExactly(_ descriptor: Int32, _ count: Int) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + filled, count - filled) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { return nil }
            filled += got
        }
        return buffer
    }

    /// Writes all of `bytes`; false when the peer went away. Never raises SIGPIPE.
    package static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let wrote = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            if wrote < 0 && errno == EINTR { continue }
            guard wrote > 0 else { return false }
            sent += wrote
        }
        return true
    }

    /// A 32-bit big-endian length and that many bytes: the framing of both of keychaind's
    /// socket doors (the SSH agent's by its specification, the keeper's by choice).
    package static func lengthPrefixed(_ body: [UInt8]) -> [UInt8] {
        let length = UInt32(body.count)
        return [UInt8(length >> 24), UInt8(length >> 16 & 0xff), UInt8(length >> 8 & 0xff), UInt8(length & 0xff)] + body
    }

    /// Reads one length-prefixed message. `.closed` when the peer closed before a message
    /// began or within it; `.tooLong` for a length of zero or above `maximumLength`, after
    /// which the stream has no trustworthy boundary left.
    package static func readMessage(_ descriptor: Int32, maximumLength: Int) -> FramedRead {
        guard let header = readExactly(descriptor, 4) else { return .closed }
        let length = header.reduce(0) { $0 << 8 | Int($1) }
        guard length > 0, length <= maximumLength else { return .tooLong(length) }
        guard let body = readExactly(descriptor, length) else { return .closed }
        return .message(body)
    }
}

/// What ``SocketIO/readMessage(_:maximumLength:)`` read.
package enum FramedRead: Equatable {
    case message([UInt8])
    case closed
    case tooLong(Int)
}
