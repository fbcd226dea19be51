import Foundation
import KeychainTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A private folder for one test, removed at the end.
final class TemporaryFolder {
    let path: String

    init() throws {
        var template = Array((NSTemporaryDirectory() + "/caller-identity-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template), let resolved = realpath(made, nil) else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        // Resolved, so that paths built on it are the ones the kernel shows.
        path = String(cString: resolved)
        free(resolved)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Writes `contents` to `name` in the folder with `mode`; returns the path.
    @discardableResult
    func write(_ name: String, _ contents: some DataProtocol, mode: Int = 0o644) throws -> String {
        let file = path + "/" + name
        try Data(contents).write(to: URL(fileURLWithPath: file))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file)
        return file
    }
}

/// A listening Unix socket in a folder, as keychaind's own socket will be.
final class UnixListener {
    let path: String
    let descriptor: Int32

    init(path: String) throws {
        self.path = path
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            for (index, byte) in path.utf8.enumerated() { bytes[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(descriptor, 8) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    }

    deinit { close(descriptor) }

    /// The next connection; fails (instead of hanging the run) when none comes, e.g. because the
    /// client could not start.
    func accept() throws -> Int32 {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 30_000) == 1 else { throw POSIXError(.ETIMEDOUT) }
        let connection = Glibc.accept(descriptor, nil, nil)
        guard connection >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        // Not handed to the next test's children.
        _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
        return connection
    }
}

/// Child processes that call: Python's socket module connecting to a path (the interpreter
/// Debian ships, never a shim on PATH), or any program left running.
enum Callers {
    static let python = "/usr/bin/python3"
    /// What /proc/PID/exe shows for it (python3 is a link to python3.X).
    static var pythonExecutable: String {
        guard let resolved = realpath(python, nil) else { return python }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Connects to `socket`, then waits until the other end closes (or, with `stay` false, exits at once).
    static let clientCode = """
    import socket, sys
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(sys.argv[1])
    if sys.argv[2] == "stay":
        s.recv(1)
    """

    static func start(_ executable: String, _ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// A Python client of `socket` on the host.
    static func hostClient(socket: String, stay: Bool = true) throws -> Process {
        try start(python, ["-c", clientCode, socket, stay ? "stay" : "leave"])
    }

    /// The same client in a fresh root made by bubblewrap, with `rootEntry` arguments that put
    /// (or not) a `/.flatpak-info` there, and `folder` (where the socket is) bound in.
    static func sandboxedClient(socket: String, folder: String, rootEntry: [String]) throws -> Process {
        let root = ["--tmpfs", "/", "--ro-bind", "/usr", "/usr", "--ro-bind", "/etc", "/etc",
                    "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64", "--symlink", "usr/bin", "/bin",
                    "--proc", "/proc", "--dev", "/dev", "--bind", folder, folder]
        return try start("/usr/bin/bwrap", root + rootEntry + ["--", python, "-c", clientCode, socket, "stay"])
    }

    /// Waits until the kernel shows `process` running an executable whose path holds `marker`
    /// (the exec has happened), compared as bytes since the path need not be UTF-8.
    static func waitUntilRunning(_ process: Process, _ marker: String) {
        let wanted = Array(marker.utf8)
        for _ in 0..<5_000 {
            var buffer = [CChar](repeating: 0, count: 4096)
            let count = readlink("/proc/\(process.processIdentifier)/exe", &buffer, buffer.count)
            if count > 0 {
                let path = buffer[..<count].map { UInt8(bitPattern: $0) }
                if path.count >= wanted.count && (0...(path.count - wanted.count)).contains(where: { path[$0..<($0 + wanted.count)].elementsEqual(wanted) }) { return }
            }
            usleep(1_000)
        }
    }

    static func stop(_ process: Process) {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        _ = process.waitForExit()
    }

    /// SHA-256 of a file as coreutils' sha256sum computes it: an implementation independent of ours.
    static func sha256sum(_ path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        _ = process.waitForExit()
        return String(decoding: data, as: UTF8.self).split(separator: " ").first.map(String.init) ?? ""
    }
}
