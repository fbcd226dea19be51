package import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where the aliases clients set with `SetAlias` (`default` among them) are kept across
/// restarts: a small file beside the keychains, one `alias collection` pair per line. Both are
/// object-path names (letters, digits, `_`), so a line needs no quoting; a line that is not such
/// a pair (a damaged or hand-edited file) is passed over, never fatal.
package struct AliasFile: Sendable {
    package let url: URL

    /// The file's name in the keychains folder.
    package static let fileName = "secret-service-aliases"

    package init(url: URL) {
        self.url = url
    }

    /// The aliases the file holds; none when it is missing or unreadable.
    func load() -> [String: String] {
        guard let data = try? Data(contentsOf: url), data.count <= 1 << 20 else { return [:] }
        var aliases: [String: String] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy(SecretObjectPath.isPathElementByte) }) else {
                continue
            }
            aliases[String(parts[0])] = String(parts[1])
        }
        return aliases
    }

    /// Replaces the file with `aliases` (written aside, then renamed into place, readable by
    /// the user alone); no file at all when there are none.
    func save(_ aliases: [String: String]) throws {
        if aliases.isEmpty {
            if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
            return
        }
        let text = aliases.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)\n" }.joined()
        let aside = url.deletingLastPathComponent().appendingPathComponent(".\(Self.fileName).\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: aside.path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown)
        }
        guard rename(aside.path, url.path) == 0 else {
            let failure = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            try? FileManager.default.removeItem(at: aside)
            throw failure
        }
    }
}
