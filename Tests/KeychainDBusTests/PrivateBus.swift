import Foundation
@testable import KeychainDBus
import KeychainLocking

/// A dbus-daemon of a test's own, on a socket in /tmp, killed and waited for when the test ends.
/// SIGKILL, because the daemon inherits the test runner's signal mask, in which SIGTERM is blocked.
final class PrivateBus: @unchecked Sendable {
    // @unchecked: set once in init; Process is only terminated and waited for in shutdown().
    let address: String
    private let process: Process

    init() throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        process.arguments = ["--session", "--nofork", "--nopidfile", "--print-address=1", "--address=unix:tmpdir=/tmp"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The address is the first line the daemon prints.
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("unix:") else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw DBusError(name: "test.NoBus", message: "dbus-daemon printed no address")
        }
        address = text
    }

    func shutdown() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        // Killed, the daemon leaves its socket file behind in /tmp; one per test added up.
        if let path = Self.socketPath(address) { unlink(path) }
    }

    /// The socket file of a `unix:path=…` address (a `unix:abstract=…` one has none).
    static func socketPath(_ address: String) -> String? {
        guard let start = address.range(of: "path=")?.upperBound else { return nil }
        return String(address[start...].prefix { $0 != "," })
    }

    func connect() throws -> DBusConnection { try DBusConnection.session(address: address) }
}

/// Runs `body` with a private bus that is shut down however the body ends.
func withPrivateBus<R>(_ body: (PrivateBus) throws -> R) throws -> R {
    let bus = try PrivateBus()
    defer { bus.shutdown() }
    return try body(bus)
}

/// A connection whose dispatch loop runs on a thread of its own until `stop()`.
final class Running: Sendable {
    let connection: DBusConnection
    private let finished = DispatchSemaphore(value: 0)

    init(_ connection: DBusConnection) {
        self.connection = connection
        let finished = self.finished
        Thread.detachNewThread {
            connection.run()
            finished.signal()
        }
    }

    /// Stops the loop and waits for run() to return; false if it did not within 10 s.
    @discardableResult
    func stop() -> Bool {
        connection.stop()
        return finished.wait(timeout: .now() + 10) == .success
    }
}

/// Values collected from other threads, waited for with a timeout.
final class Inbox<T: Sendable>: Sendable {
    private let items = Locked<[T]>([])
    private let arrived = DispatchSemaphore(value: 0)

    func put(_ item: T) {
        items.withLock { $0.append(item) }
        arrived.signal()
    }

    /// The next item, or nil after `seconds`.
    func next(within seconds: Double = 10) -> T? {
        guard arrived.wait(timeout: .now() + seconds) == .success else { return nil }
        return items.withLock { $0.removeFirst() }
    }

    var all: [T] { items.withLock { $0 } }
}

let testName = "org.example.KeychainDBusTest"
let testInterface = "org.example.Test"

/// Serves an echo handler at /test: Echo returns the arguments, Fail returns an error reply,
/// Bad returns a value that does not marshal. Every call is also put into `calls`.
func serveEcho(on connection: DBusConnection, calls: Inbox<DBusMethodCall>? = nil) throws {
    try connection.serve(subtree: "/test") { call in
        calls?.put(call)
        switch call.member {
        case "Fail": return .error(name: "org.example.Error.Refused", message: "refused: \(call.path)")
        case "Bad": return .values([.array(elementSignature: "s", [.int32(1)])])
        case "BadError": return .error(name: "not an error name", message: "x")
        default: return .values(call.arguments)
        }
    }
}
