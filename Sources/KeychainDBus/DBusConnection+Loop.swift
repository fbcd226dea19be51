import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import KeychainLocking

// The state DBusConnection's run loop and libdbus's callbacks share: the wake-up pipe, the
// served subtrees, the handlers and the work left for after the replies.

struct LoopState {
    var running = false
    var stopRequested = false
    var peerHandlers: [@Sendable (String) -> Void] = []
    var nameLostHandlers: [@Sendable (String) -> Void] = []
    var subscriptions: [Subscription] = []
}

/// The state libdbus's callbacks reach through their user data: the self-pipe that wakes run(),
/// and the handlers of the connection's filter.
final class Loop: Sendable {
    /// Read end (polled by run()) and write end, both non-blocking.
    let wakeFD: Int32
    private let wakeWriteFD: Int32
    let state = Locked(LoopState())
    /// What ``DBusConnection/serve(subtree:handler:)`` registered, for the filter to route to.
    let subtrees = Locked<[Subtree]>([])
    /// The thread inside run() (its pthread_t), 0 when none.
    let loopThread = Atomic<UInt>(0)
    /// Work handlers left for after their replies; only the loop's thread adds and runs it.
    let afterReplies = Locked<[@Sendable () -> Void]>([])
    /// Set by ``DBusConnection/expectFollowUp()``, taken by the loop after the replies are out.
    let followUpExpected = Atomic<Bool>(false)
    /// Whether ``DBusConnection/expectFollowUp()`` is heeded (``DBusConnection/watchesForFollowUps``).
    let followUpWatchEnabled = Atomic<Bool>(true)
    /// How many times the loop has watched for an expected call.
    let followUpWatchCount = Atomic<Int>(0)

    init() throws {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw DBusError.failed("pipe failed (errno \(errno))") }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        wakeFD = fds[0]
        wakeWriteFD = fds[1]
    }

    deinit {
        closeDescriptor(wakeFD)
        closeDescriptor(wakeWriteFD)
    }

    /// libdbus's callbacks: it calls them when a message arrives or waits to be sent. On the
    /// loop's own thread they are not needed (run() dispatches everything queued and looks at
    /// what waits to be sent before it polls again), and answering them there cost each call
    /// four system calls and a second trip round the loop.
    func wakeFromElsewhere() {
        let current = UInt(pthread_self())
        guard loopThread.load(ordering: .acquiring) != current else { return }
        wake()
    }

    /// A full pipe already wakes the loop, so a failed write is fine.
    func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWriteFD, &byte, 1)
    }

    func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(wakeFD, &buffer, buffer.count) > 0 {}
    }

    /// The served subtree `path` falls in, as libdbus's object tree would pick it for a fallback
    /// registration: the path itself or anything below it (`/` holds every path), the longest
    /// such registration first. Routing here rather than through libdbus's object tree saves
    /// every call that tree's work (its lock, the path split into a `malloc`'d array of copied
    /// elements, the walk), which the daemon paid on every call for one registration.
    func subtree(serving path: UnsafePointer<CChar>) -> Subtree? {
        let length = strlen(path)
        return path.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
            subtrees.withLock { served in
                var best: Subtree?
                for subtree in served where subtree.serves(UnsafeBufferPointer(start: bytes, count: length)) {
                    if best.map({ $0.path.count < subtree.path.count }) ?? true { best = subtree }
                }
                return best
            }
        }
    }
}

/// One ``DBusConnection/serve(subtree:handler:)`` registration: held by libdbus's object tree
/// (its user data) and by the connection's filter, which routes the calls.
final class Subtree: Sendable {
    /// The registered path's bytes (a valid object path: no trailing slash unless it is `/`).
    let path: [UInt8]
    let handler: @Sendable (DBusMethodCall) -> DBusReply

    init(path: String, _ handler: @escaping @Sendable (DBusMethodCall) -> DBusReply) {
        self.path = Array(path.utf8)
        self.handler = handler
    }

    /// Whether a call to `candidate` belongs here: the path itself, or a path below it.
    func serves(_ candidate: UnsafeBufferPointer<UInt8>) -> Bool {
        if path.count == 1 { return true }   // `/`: every object path begins with it
        guard candidate.count >= path.count,
              path.withUnsafeBufferPointer({ memcmp($0.baseAddress!, candidate.baseAddress!, path.count) == 0 }) else {
            return false
        }
        return candidate.count == path.count || candidate[path.count] == UInt8(ascii: "/")
    }
}

func loopOf(_ data: UnsafeMutableRawPointer?) -> Loop {
    Unmanaged<Loop>.fromOpaque(data!).takeUnretainedValue()
}

/// close(2), from outside any type that has a close() of its own.
private func closeDescriptor(_ fd: Int32) {
    _ = close(fd)
}
