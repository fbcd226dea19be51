#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What `/proc/PID/status` says of a process that matters here: its state and its user and
/// group ids (real, effective, saved, filesystem, as the kernel lists them).
struct ProcessStatus: Equatable {
    /// The state letter: R, S, D, T, t, Z (zombie), X (dead), I, ...
    var state: Character
    var effectiveUserID: UInt32
    var effectiveGroupID: UInt32

    /// The most a status file is read; the kernel's is about 1.5 KB.
    static let largestFile = 64 * 1024

    /// Parses a status file; nil when a line it needs is missing or malformed.
    static func parse(_ bytes: [UInt8]) -> ProcessStatus? {
        // Only the lines read here need to be text; a process's name (`Name:`) can be any bytes.
        var state: Character?
        var uid: UInt32?
        var gid: UInt32?
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            guard let text = Text.validUTF8(line) else { continue }
            if text.hasPrefix("State:") {
                state = text.dropFirst(6).first { $0 != "\t" && $0 != " " }
            } else if text.hasPrefix("Uid:") {
                uid = secondField(text.dropFirst(4))
            } else if text.hasPrefix("Gid:") {
                gid = secondField(text.dropFirst(4))
            }
        }
        guard let state, let uid, let gid else { return nil }
        return ProcessStatus(state: state, effectiveUserID: uid, effectiveGroupID: gid)
    }

    var isZombie: Bool { state == "Z" || state == "X" }

    /// Whether `/proc/PID/status` now says the process has exited (or cannot be read).
    static func isZombie(processID: Int32) -> Bool {
        let directory = open("/proc/\(processID)", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { return true }
        defer { close(directory) }
        guard case .success(let bytes) = BoundedFiles.read("status", in: directory, limit: largestFile),
              let status = parse(bytes) else { return true }
        return status.isZombie
    }

    private static func secondField(_ text: Substring) -> UInt32? {
        let fields = text.split(whereSeparator: { $0 == "\t" || $0 == " " })
        return fields.count >= 2 ? UInt32(fields[1]) : nil
    }
}
