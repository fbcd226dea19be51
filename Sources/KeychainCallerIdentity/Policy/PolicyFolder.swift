#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where rules are read from, and who may own them.
///
/// One rule per file, `*.conf`, in a folder: `/etc/swift-keychain/apps.d` for a system daemon,
/// `${XDG_CONFIG_HOME:-~/.config}/swift-keychain/apps.d` for a user's. A file is refused (and
/// reported) when it is a symbolic link or not a regular file, when its group or others may write
/// it, or when it is owned by someone else than root (system folder) or than the user or root
/// (user folder). The folder itself must be owned likewise and writable by no one else, or none
/// of its files is read.
package struct PolicyFolder: Sendable, Equatable {
    package enum Owner: Sendable, Equatable {
        /// Root's folder, for keychaind as a system service.
        case root
        /// A user's folder, for that user's keychaind; root's files are accepted there too.
        case user(UInt32)
    }

    package let path: String
    package let owner: Owner

    package init(path: String, owner: Owner) {
        self.path = path
        self.owner = owner
    }

    /// The system daemon's folder.
    package static let system = PolicyFolder(path: "/etc/swift-keychain/apps.d", owner: .root)

    /// A user daemon's folder, under the user's configuration folder.
    package static func user(_ uid: UInt32, environment: [String: String]) -> PolicyFolder? {
        let configuration: String
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            configuration = xdg
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            configuration = home + "/.config"
        } else {
            return nil
        }
        return PolicyFolder(path: configuration + "/swift-keychain/apps.d", owner: .user(uid))
    }

    /// The most a rule file may hold.
    static let largestFile = 16 * 1024

    /// The rules of the folder, and every file that was refused. A folder that does not exist
    /// has no rules and no problems.
    package func load() -> (policy: AccessPolicy, problems: [PolicyProblem]) {
        load(candidate: nil)
    }

    /// What ``load()`` would give if the folder's file `name` held `text` (in place of what it
    /// holds, or added): how a rule is checked before it is put in place, by the same reading
    /// and the same order as keychaind's. `name` must be a `*.conf` name not starting with a dot.
    package func load(withFile name: String, holding text: String) -> (policy: AccessPolicy, problems: [PolicyProblem]) {
        load(candidate: (name, text))
    }

    private func load(candidate: (name: String, text: String)?) -> (policy: AccessPolicy, problems: [PolicyProblem]) {
        let folder = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        var names: [String] = []
        if folder >= 0 {
            if let problem = ownershipProblem(folder, what: "the folder") {
                close(folder)
                return (AccessPolicy(rules: []), [PolicyProblem(file: path, reason: problem + "; none of its rules is read")])
            }
            names = fileNames(folder)
        } else if errno != ENOENT {
            return (AccessPolicy(rules: []), [PolicyProblem(file: path, reason: "the folder cannot be opened (errno \(errno))")])
        }
        defer { if folder >= 0 { close(folder) } }
        if let candidate, !names.contains(candidate.name) {
            names.append(candidate.name)
            names.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        }
        var rules: [AccessRule] = []
        var problems: [PolicyProblem] = []
        for name in names {
            let source = path + "/" + name
            do throws(PolicyProblem) {
                let text: String
                if let candidate, candidate.name == name {
                    // The file's checks that do not depend on how it will be written.
                    guard candidate.text.utf8.count <= Self.largestFile else {
                        throw PolicyProblem(file: source, reason: "is larger than \(Self.largestFile) bytes")
                    }
                    text = candidate.text
                } else {
                    text = try contents(of: name, in: folder, source: source)
                }
                let rule = try AccessRule.parse(text, source: source)
                if let earlier = rules.first(where: { $0.subject == rule.subject }) {
                    throw PolicyProblem(file: source, reason: "names the same caller as \(earlier.source), which is kept")
                }
                rules.append(rule)
            } catch {
                problems.append(error)
            }
        }
        return (AccessPolicy(rules: rules), problems)
    }

    /// The `*.conf` names in the folder, in byte order, so that which of two conflicting rules
    /// is kept does not depend on the file system.
    private func fileNames(_ folder: Int32) -> [String] {
        let listing = dup(folder)
        guard listing >= 0 else { return [] }
        guard let directory = fdopendir(listing) else {
            close(listing)
            return []
        }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasSuffix(".conf") && !name.hasPrefix(".") { names.append(name) }
        }
        return names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    private func contents(of name: String, in folder: Int32, source: String) throws(PolicyProblem) -> String {
        let descriptor = openat(folder, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else {
            let reason = errno == ELOOP ? "is a symbolic link" : "cannot be opened (errno \(errno))"
            throw PolicyProblem(file: source, reason: reason)
        }
        defer { close(descriptor) }
        if let problem = ownershipProblem(descriptor, what: "the file") { throw PolicyProblem(file: source, reason: problem) }
        switch BoundedFiles.readAll(descriptor, limit: Self.largestFile, requireRegular: true) {
        case .success(let bytes):
            guard let text = Text.validUTF8(bytes) else { throw PolicyProblem(file: source, reason: "is not UTF-8 text") }
            return text
        case .failure(.notRegular): throw PolicyProblem(file: source, reason: "is not a regular file")
        case .failure(.tooLarge): throw PolicyProblem(file: source, reason: "is larger than \(Self.largestFile) bytes")
        case .failure(.system(let code)): throw PolicyProblem(file: source, reason: "cannot be read (errno \(code))")
        }
    }

    /// Why the open file or folder is not trustworthy for this folder's owner, or nil.
    private func ownershipProblem(_ descriptor: Int32, what: String) -> String? {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return "\(what) cannot be examined (errno \(errno))" }
        switch owner {
        case .root where status.st_uid != 0:
            return "\(what) is owned by user \(status.st_uid), not root"
        case .user(let uid) where status.st_uid != uid && status.st_uid != 0:
            return "\(what) is owned by user \(status.st_uid), neither by user \(uid) nor root"
        default:
            break
        }
        if status.st_mode & (S_IWGRP | S_IWOTH) != 0 { return "\(what) is writable by its group or by others" }
        return nil
    }
}
