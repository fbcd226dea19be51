import CDBus
internal import CKeychainSystem
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A method call addressed to a served subtree.
package struct DBusMethodCall: Sendable {
    package let sender: String        // the caller's unique bus name, e.g. ":1.42"
    package let path: String
    package let interface: String?
    package let member: String
    package let signature: String     // of the arguments as received
    package let arguments: [DBusValue]

    package init(sender: String, path: String, interface: String?, member: String, signature: String, arguments: [DBusValue]) {
        self.sender = sender
        self.path = path
        self.interface = interface
        self.member = member
        self.signature = signature
        self.arguments = arguments
    }
}

/// What a handler answers to a method call.
///
/// Besides any values (``values(_:)``), the two shapes a Secret Service lookup answers with have
/// cases of their own, written straight from their strings and bytes: no ``DBusValue`` tree to
/// build, check and free for the replies every lookup gets. They are checked as thoroughly.
package enum DBusReply: Sendable {
    case values([DBusValue])
    case error(name: String, message: String)
    /// Two arrays of object paths, `ao` then `ao` (the Secret Service's search results).
    case objectPathLists([String], [String])
    /// A dictionary from object paths to `(oayays)` structures, `a{o(oayays)}` (its secrets).
    case secretsByPath([DBusPathSecret])
}

/// A signal received through ``DBusConnection/subscribe(path:interface:member:_:)``.
package struct DBusSignal: Sendable {
    package let sender: String
    package let path: String
    package let interface: String
    package let member: String
    package let signature: String
    package let arguments: [DBusValue]
}

/// libdbus must be told to be thread-safe before any other call; a global's initialiser runs once.
let threadsReady: Bool = dbus_threads_init_default() != 0

/// One private connection to a message bus.
///
/// Threading: libdbus is thread-safe once `dbus_threads_init_default` has run, so every method
/// here may be called from any thread. Incoming messages are dispatched (handlers, filters) only
/// by the thread inside ``run()``. That loop polls the socket and an eventfd; libdbus's wake-up
/// and dispatch-status callbacks write to the eventfd, so a message another thread queues, or
/// receives while blocked in ``call(destination:path:interface:member:arguments:timeoutMilliseconds:)``,
/// is handled at once, and ``stop()`` only has to set a flag and write to it too.
package final class DBusConnection: Sendable {
    private let handle: Handle
    private let loop: Loop
    package let uniqueName: String

    package enum NameRequest: Sendable { case primaryOwner, inQueue, exists, alreadyOwner }

    /// Connects to the session bus (DBUS_SESSION_BUS_ADDRESS, or where libdbus finds it when
    /// that is unset), or to the given address, and registers with the bus (Hello).
    package static func session(address: String? = nil) throws -> DBusConnection {
        guard threadsReady else { throw DBusError.failed("dbus_threads_init_default failed") }
        let pointer: OpaquePointer = try withError { error in
            if let address {
                guard !address.utf8.contains(0) else { return nil }
                guard let connection = address.withCString({ dbus_connection_open_private($0, error) }) else { return nil }
                guard dbus_bus_register(connection, error) != 0 else {
                    dbus_connection_close(connection)
                    dbus_connection_unref(connection)
                    return nil
                }
                return connection
            }
            return dbus_bus_get_private(DBUS_BUS_SESSION, error)
        }
        return try DBusConnection(pointer)
    }

    private init(_ pointer: OpaquePointer) throws {
        // A lost bus must not end the daemon's process (libdbus's default for bus connections).
        dbus_connection_set_exit_on_disconnect(pointer, 0)
        handle = Handle(pointer)
        guard let name = dbus_bus_get_unique_name(pointer) else { throw DBusError.failed("the bus gave no unique name") }
        uniqueName = String(cString: name)
        loop = try Loop()
        let retained = { Unmanaged.passRetained(self.loop).toOpaque() }
        dbus_connection_set_wakeup_main_function(pointer, { data in loopOf(data).wakeFromElsewhere() }, retained(), releaseLoop)
        dbus_connection_set_dispatch_status_function(pointer, { _, _, data in loopOf(data).wakeFromElsewhere() }, retained(), releaseLoop)
        guard dbus_connection_add_filter(pointer, filterMessage, retained(), releaseLoop) != 0 else {
            throw DBusError.failed("out of memory")
        }
    }

    // MARK: Names

    /// DBUS_NAME_FLAG_REPLACE_EXISTING when replace; ALLOW_REPLACEMENT when allowReplacement;
    /// DO_NOT_QUEUE unless `queue` (then a name whose owner does not allow replacement comes to
    /// this connection when the owner leaves: `.inQueue`).
    package func requestName(_ name: String, replace: Bool, allowReplacement: Bool, queue: Bool = false) throws -> NameRequest {
        guard DBusCodec.isValid(name, dbus_validate_bus_name) else { throw DBusError.invalidArgs("invalid bus name") }
        var flags = queue ? UInt32(0) : UInt32(DBUS_NAME_FLAG_DO_NOT_QUEUE)
        if replace { flags |= UInt32(DBUS_NAME_FLAG_REPLACE_EXISTING) }
        if allowReplacement { flags |= UInt32(DBUS_NAME_FLAG_ALLOW_REPLACEMENT) }
        var result: Int32 = -1
        try withError { error in
            result = name.withCString { dbus_bus_request_name(handle.pointer, $0, flags, error) }
            return result >= 0
        }
        switch result {
        case DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER: return .primaryOwner
        case DBUS_REQUEST_NAME_REPLY_IN_QUEUE: return .inQueue
        case DBUS_REQUEST_NAME_REPLY_EXISTS: return .exists
        case DBUS_REQUEST_NAME_REPLY_ALREADY_OWNER: return .alreadyOwner
        default: throw DBusError.failed("unexpected RequestName reply \(result)")
        }
    }

    /// Gives up a name this connection owns (ReleaseName); true if it was owned.
    @discardableResult
    package func releaseName(_ name: String) throws -> Bool {
        guard DBusCodec.isValid(name, dbus_validate_bus_name) else { throw DBusError.invalidArgs("invalid bus name") }
        var result: Int32 = -1
        try withError { error in
            result = name.withCString { dbus_bus_release_name(handle.pointer, $0, error) }
            return result >= 0
        }
        return result == DBUS_RELEASE_NAME_REPLY_RELEASED
    }

    // MARK: Serving

    /// One handler for every object at or below `path` (dbus_connection_register_fallback). Runs
    /// on the dispatch thread; returns the reply to send (ignored if the call had
    /// NO_REPLY_EXPECTED). A reply that cannot be marshalled is sent as
    /// org.freedesktop.DBus.Error.Failed; arguments that cannot be decoded (file descriptors)
    /// are answered with InvalidArgs without calling the handler.
    package func serve(subtree path: String, handler: @escaping @Sendable (DBusMethodCall) -> DBusReply) throws {
        guard DBusCodec.isValid(path, dbus_validate_path) else { throw DBusError.invalidArgs("invalid object path") }
        let subtree = Subtree(path: path, handler)
        let box = Unmanaged.passRetained(subtree).toOpaque()
        var vtable = DBusObjectPathVTable(unregister_function: { _, data in
            if let data { Unmanaged<Subtree>.fromOpaque(data).release() }
        }, message_function: handleMethodCall, dbus_internal_pad1: nil, dbus_internal_pad2: nil,
           dbus_internal_pad3: nil, dbus_internal_pad4: nil)
        do {
            try withError { error in
                path.withCString { dbus_connection_try_register_fallback(handle.pointer, $0, &vtable, box, error) } != 0
            }
        } catch {
            Unmanaged<Subtree>.fromOpaque(box).release()
            throw error
        }
        // The registration stays: it is what libdbus's object tree knows (the parents'
        // introspection lists it). Calls to it are routed by the connection's filter, which
        // libdbus runs before its object tree (see ``Loop/subtree(serving:)``).
        loop.subtrees.withLock { $0.append(subtree) }
    }

    // MARK: Signals

    /// Sends a signal; callable from any thread.
    package func emitSignal(path: String, interface: String, member: String, arguments: [DBusValue]) throws {
        guard DBusCodec.isValid(path, dbus_validate_path) else { throw DBusError.invalidArgs("invalid object path") }
        guard DBusCodec.isValid(interface, dbus_validate_interface) else { throw DBusError.invalidArgs("invalid interface name") }
        guard DBusCodec.isValid(member, dbus_validate_member) else { throw DBusError.invalidArgs("invalid member name") }
        try DBusCodec.validate(arguments)
        guard let message = path.withCString({ p in interface.withCString { i in member.withCString { dbus_message_new_signal(p, i, $0) } } }) else {
            throw DBusError.failed("out of memory")
        }
        defer { dbus_message_unref(message) }
        try DBusCodec.encode(arguments, into: message)
        try send(message)
    }

    /// Runs `work` once the answer to the call being handled now has been sent: a handler calls
    /// this for work its caller does not wait for. On the loop's thread (inside a handler) the
    /// work runs after the loop has dispatched what it read and written every queued reply,
    /// before it reads the next message; from any other thread it runs at once.
    package func afterReplies(_ work: @escaping @Sendable () -> Void) {
        guard loop.loopThread.load(ordering: .acquiring) == UInt(pthread_self()) else {
            work()
            return
        }
        loop.afterReplies.withLock { $0.append(work) }
    }

    /// Tells the loop that the peer just answered will almost surely call again at once (a
    /// lookup's search is followed by the request for the secret it found). Once the replies are
    /// out, the loop then watches the socket without sleeping for up to ``followUpWindow``
    /// (yielding the processor between looks, so it takes no time another process wants), and
    /// reads that request without the wake-up a sleeping process pays. Only with more than one
    /// processor to run on (``followUpWatchPays``), and only from the loop's own thread (a handler or work it left
    /// for after its reply), and while ``watchesForFollowUps`` is on; elsewhere it does nothing.
    package func expectFollowUp() {
        guard Self.followUpWatchPays, watchesForFollowUps,
              loop.loopThread.load(ordering: .acquiring) == UInt(pthread_self()) else { return }
        loop.followUpExpected.store(true, ordering: .relaxed)
    }

    /// Whether ``expectFollowUp()`` is heeded: on by default. Off, the loop always sleeps in
    /// poll() between calls, and a lookup's second request pays the wake-up; that spares the
    /// up to ``followUpWindow`` of processor time each expected call may cost.
    package var watchesForFollowUps: Bool {
        get { loop.followUpWatchEnabled.load(ordering: .relaxed) }
        set { loop.followUpWatchEnabled.store(newValue, ordering: .relaxed) }
    }

    /// How many times the loop has watched for an expected call since the connection opened.
    package var followUpWatchCount: Int { loop.followUpWatchCount.load(ordering: .relaxed) }

    /// How long the loop watches for an expected call before it sleeps: longer than a client
    /// takes to read a search's answer and ask for the secret (libsecret's delay, measured:
    /// Benchmarks/notes/2026-11-25-secret-service-against-gnome-keyring.md), short
    /// enough that a call that never comes costs little.
    package static let followUpWindow: Duration = .microseconds(500)

    /// Whether watching can pay here: with a single processor to run on (the machine's, or the
    /// one this process is pinned to), it would only be taken from the process the loop waits for.
    /// The affinity mask says which processors this process may use; Foundation's
    /// `activeProcessorCount` counts the machine's, pinned or not.
    package static let followUpWatchPays: Bool = {
        let usable = cks_usable_processors()
        return usable >= 0 ? usable > 1 : sysconf(Int32(_SC_NPROCESSORS_ONLN)) > 1
    }()

    /// Called with the unique name of every peer that leaves the bus (NameOwnerChanged with an
    /// empty new owner). The first registration adds the match rule, blocking until the bus has it.
    package func onPeerDisconnected(_ handler: @escaping @Sendable (String) -> Void) {
        let first = loop.state.withLock { state in
            state.peerHandlers.append(handler)
            return state.peerHandlers.count == 1
        }
        if first {
            // Only the bus sends it; arg2='' keeps the peers that are still there out.
            try? addMatch("type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',"
                + "interface='org.freedesktop.DBus',member='NameOwnerChanged',arg2=''")
        }
    }

    /// Called when this connection loses a name it owned (NameLost), e.g. replaced by another provider.
    package func onNameLost(_ handler: @escaping @Sendable (String) -> Void) {
        loop.state.withLock { $0.nameLostHandlers.append(handler) }
    }

    /// Adds a match rule on the bus (AddMatch), blocking until the bus has answered.
    package func addMatch(_ rule: String) throws {
        guard !rule.utf8.contains(0), rule.utf8.count <= Int(DBUS_MAXIMUM_MATCH_RULE_LENGTH) else {
            throw DBusError.invalidArgs("invalid match rule")
        }
        try withError { error in
            rule.withCString { dbus_bus_add_match(handle.pointer, $0, error) }
            return true
        }
    }

    /// Receives the signals of `interface` (and `member`, and `path`, when given): adds the
    /// match rule, then calls `handler` on the dispatch thread for each such signal.
    package func subscribe(path: String? = nil, interface: String, member: String? = nil,
                           _ handler: @escaping @Sendable (DBusSignal) -> Void) throws {
        guard DBusCodec.isValid(interface, dbus_validate_interface) else { throw DBusError.invalidArgs("invalid interface name") }
        var rule = "type='signal',interface='\(interface)'"
        if let member {
            guard DBusCodec.isValid(member, dbus_validate_member) else { throw DBusError.invalidArgs("invalid member name") }
            rule += ",member='\(member)'"
        }
        if let path {
            guard DBusCodec.isValid(path, dbus_validate_path) else { throw DBusError.invalidArgs("invalid object path") }
            rule += ",path='\(path)'"
        }
        loop.state.withLock { $0.subscriptions.append(Subscription(path: path, interface: interface, member: member, handler: handler)) }
        try addMatch(rule)
    }

    // MARK: Calls

    /// A blocking method call (client side; for tests and tools). Throws DBusError(name:message:)
    /// on an error reply.
    package func call(destination: String, path: String, interface: String, member: String,
                      arguments: [DBusValue], timeoutMilliseconds: Int32 = 25_000) throws -> [DBusValue] {
        guard DBusCodec.isValid(destination, dbus_validate_bus_name) else { throw DBusError.invalidArgs("invalid bus name") }
        guard DBusCodec.isValid(path, dbus_validate_path) else { throw DBusError.invalidArgs("invalid object path") }
        guard DBusCodec.isValid(interface, dbus_validate_interface) else { throw DBusError.invalidArgs("invalid interface name") }
        guard DBusCodec.isValid(member, dbus_validate_member) else { throw DBusError.invalidArgs("invalid member name") }
        try DBusCodec.validate(arguments)
        guard let message = destination.withCString({ d in path.withCString { p in interface.withCString { i in
            member.withCString { dbus_message_new_method_call(d, p, i, $0) } } } }) else {
            throw DBusError.failed("out of memory")
        }
        defer { dbus_message_unref(message) }
        try DBusCodec.encode(arguments, into: message)
        let reply = try withError { error in
            dbus_connection_send_with_reply_and_block(handle.pointer, message, timeoutMilliseconds, error)
        }
        defer { dbus_message_unref(reply) }
        return try DBusCodec.decodeArguments(of: reply)
    }

    // MARK: The dispatch loop

    /// Runs the dispatch loop on the calling thread until stop() is called or the bus connection
    /// closes. One thread at a time: a second concurrent call returns at once.
    package func run() {
        guard loop.state.withLock({ state -> Bool in
            guard !state.running else { return false }
            state.running = true
            return true
        }) else { return }
        loop.loopThread.store(UInt(pthread_self()), ordering: .releasing)
        defer {
            loop.loopThread.store(0, ordering: .releasing)
            loop.state.withLock { $0.running = false; $0.stopRequested = false }
        }
        let connection = handle.pointer
        while !loop.state.withLock({ $0.stopRequested }) {
            // Reads and writes what it can without waiting, then dispatches all that is queued.
            let connected = dbus_connection_read_write(connection, 0) != 0
            while dbus_connection_dispatch(connection) == DBUS_DISPATCH_DATA_REMAINS {}
            guard connected else { return }
            runAfterReplies(connection)
            let watchFirst = loop.followUpExpected.exchange(false, ordering: .relaxed)
            var socket: Int32 = -1
            guard dbus_connection_get_unix_fd(connection, &socket) != 0 else { return }
            if loop.state.withLock({ $0.stopRequested }) { return }
            let writing = dbus_connection_has_messages_to_send(connection) != 0
            var fds = [pollfd(fd: socket, events: Int16(POLLIN) | (writing ? Int16(POLLOUT) : 0), revents: 0),
                       pollfd(fd: loop.wakeFD, events: Int16(POLLIN), revents: 0)]
            if watchFirst { watchForFollowUp(&fds) }
            if poll(&fds, 2, -1) < 0, errno != EINTR { return }
            if fds[1].revents != 0 { loop.drain() }
        }
    }

    /// What handlers left for after their replies (``afterReplies(_:)``), once those replies are
    /// written.
    private func runAfterReplies(_ connection: OpaquePointer) {
        let work = loop.afterReplies.withLock { queued -> [@Sendable () -> Void] in
            defer { queued.removeAll() }
            return queued
        }
        guard !work.isEmpty else { return }
        // libdbus writes a reply as it is sent when the socket takes it; anything it could not
        // write yet goes out first.
        if dbus_connection_has_messages_to_send(connection) != 0 { dbus_connection_flush(connection) }
        for item in work { item() }
    }

    /// Polls without sleeping until `fds` have something or ``followUpWindow`` has passed,
    /// yielding the processor between polls (see ``expectFollowUp()``).
    private func watchForFollowUp(_ fds: inout [pollfd]) {
        loop.followUpWatchCount.add(1, ordering: .relaxed)
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: Self.followUpWindow)
        repeat {
            if poll(&fds, 2, 0) != 0 { return }
            sched_yield()
        } while clock.now < deadline
    }

    /// Thread-safe; makes run() return soon (or the next run() at once, if none is running).
    package func stop() {
        loop.state.withLock { $0.stopRequested = true }
        loop.wake()
    }

    /// Closes the connection: the bus sees this peer leave. Later calls fail; run() returns.
    package func close() {
        dbus_connection_close(handle.pointer)
        loop.wake()
    }

    package var isConnected: Bool { dbus_connection_get_is_connected(handle.pointer) != 0 }

    // MARK: Internals

    private func send(_ message: OpaquePointer) throws {
        guard dbus_connection_send(handle.pointer, message, nil) != 0 else { throw DBusError.failed("out of memory") }
        // Written now, even if no run() is going (or it is between two polls).
        dbus_connection_flush(handle.pointer)
    }
}

// MARK: - Callbacks from libdbus

/// Owns the DBusConnection reference; closes and releases it last.
private final class Handle: @unchecked Sendable {
    // @unchecked: the pointer never changes, and libdbus's connection is thread-safe.
    let pointer: OpaquePointer
    init(_ pointer: OpaquePointer) { self.pointer = pointer }
    deinit {
        dbus_connection_close(pointer)
        dbus_connection_unref(pointer)
    }
}

struct Subscription {
    let path: String?
    let interface: String
    let member: String?
    let handler: @Sendable (DBusSignal) -> Void
}

private let releaseLoop: DBusFreeFunction = { data in
    if let data { Unmanaged<Loop>.fromOpaque(data).release() }
}

func string(_ pointer: UnsafePointer<CChar>?) -> String? { pointer.map { String(cString: $0) } }

/// Runs a libdbus call that reports failure through a DBusError; throws it as ours.
private func withError<T>(_ body: (UnsafeMutablePointer<CDBus.DBusError>) -> T?) throws -> T {
    let error = UnsafeMutablePointer<CDBus.DBusError>.allocate(capacity: 1)
    error.initialize(to: CDBus.DBusError())
    dbus_error_init(error)
    defer { dbus_error_free(error); error.deinitialize(count: 1); error.deallocate() }
    let result = body(error)
    if dbus_error_is_set(error) != 0 {
        throw DBusError(name: string(error.pointee.name) ?? DBusError.failedName, message: string(error.pointee.message) ?? "")
    }
    guard let result else { throw DBusError.failed("the D-Bus call failed") }
    return result
}

private func withError(_ body: (UnsafeMutablePointer<CDBus.DBusError>) -> Bool) throws {
    let _: Bool = try withError { error in body(error) ? true : nil }
}
