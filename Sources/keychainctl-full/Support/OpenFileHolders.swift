import Foundation

/// Which other processes of this user have a file open, read from `/proc/PID/fd` (a process of
/// another user is not readable and is not counted). A keychain moved while a program holds it
/// open (keychaind's Secret Service, a long-running app) would keep being written there, and
/// those writes would be lost with the deleted file: the move refuses instead.
enum OpenFileHolders {
    /// "name (pid)" of each process other than this one with one of `paths` open.
    static func of(_ paths: [String]) -> [String] {
        let wanted = Set(paths)
        let ownPID = ProcessInfo.processInfo.processIdentifier
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        var holders: [String] = []
        for entry in entries {
            guard let pid = Int32(entry), pid != ownPID,
                  let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(entry)/fd") else { continue }
            let holds = descriptors.contains { descriptor in
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(entry)/fd/\(descriptor)")).map(wanted.contains) ?? false
            }
            guard holds else { continue }
            let name = (try? String(contentsOfFile: "/proc/\(entry)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
            holders.append("\(name) (\(pid))")
        }
        return holders
    }
}
