import CKeychainSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A Flatpak app, from the `.flatpak-info` file Flatpak puts at the root of every sandbox.
///
/// Read the way xdg-desktop-portal reads it: `/proc/PID/root` opened as a directory, then
/// `.flatpak-info` opened relative to it, so that the file is the one in the process's own root
/// and never a path this process would resolve differently. Unlike the portal, the file is
/// opened with O_NOFOLLOW: a symbolic link there would be followed from this process's root, not
/// the sandbox's (Flatpak bind-mounts a regular file, never a link).
///
/// Trust: a sandboxed process cannot change its own `/.flatpak-info` (Flatpak mounts it
/// read-only). A process outside any sandbox can make one: bubblewrap builds a new root with any
/// `.flatpak-info` it is given, without privileges where unprivileged user namespaces are
/// allowed. So the app id tells sandboxed apps apart; it does not stop a same-user host program
/// from posing as one (docs/isolation.md).
package struct FlatpakApp: Sendable, Equatable {
    /// `[Application] name=`, or `[Runtime] name=` for a sandbox that runs a runtime alone
    /// (the portal reads the same key).
    package let applicationID: String
    /// `[Instance] instance-id=`: which running instance of the app, as Flatpak numbers them.
    package let instanceID: String

    package init(applicationID: String, instanceID: String) {
        self.applicationID = applicationID
        self.instanceID = instanceID
    }

    /// The most `.flatpak-info` may hold. Flatpak's are a few kilobytes.
    package static let largestFile = 64 * 1024
    /// statfs's f_type for FUSE.
    static let fuseMagic = 0x6573_5546

    /// Why a process's root was refused.
    package enum Failure: Error, Equatable, Sendable {
        /// `/proc/PID/root` could not be opened (errno): the process is gone or hidden.
        case rootUnreadable(Int32)
        /// `.flatpak-info` exists but could not be opened (errno; ELOOP: it is a symbolic link).
        case infoUnreadable(Int32)
        case notARegularFile
        case tooLarge
        /// Not a key file GLib would read, or without a valid app id or instance id.
        case malformed(String)
    }

    /// What a process's root (opened by ``openRoot(processDirectory:)``) says: a Flatpak
    /// app, or nil for a process that is not in a Flatpak sandbox (no `.flatpak-info`, or a root
    /// on FUSE, which no Flatpak sandbox has: a toolbox container, as the portal says).
    /// A `.flatpak-info` that is there but cannot be read or is not valid is a failure, never
    /// "not a Flatpak": the process is in some sandbox, and must not pass as a host program.
    static func read(root: Int32) throws(Failure) -> FlatpakApp? {
        let info: Int32
        switch BoundedFiles.open(".flatpak-info", in: root, flags: O_RDONLY | O_NOFOLLOW | O_NONBLOCK) {
        case .success(let descriptor): info = descriptor
        case .failure(.system(ENOENT)): return nil
        case .failure(.system(let code)): throw .infoUnreadable(code)
        case .failure: throw .infoUnreadable(EIO)
        }
        defer { close(info) }
        let bytes: [UInt8]
        switch BoundedFiles.readAll(info, limit: largestFile, requireRegular: true) {
        case .success(let contents): bytes = contents
        case .failure(.notRegular): throw .notARegularFile
        case .failure(.tooLarge): throw .tooLarge
        case .failure(.system(let code)): throw .infoUnreadable(code)
        }
        return try parse(bytes)
    }

    /// Opens `/proc/PID/root` as a directory; nil (not a Flatpak) when it is refused because the
    /// root is on FUSE.
    static func openRoot(processDirectory: Int32, processID: Int32) throws(Failure) -> Int32? {
        let root = openat(processDirectory, "root", O_RDONLY | O_NONBLOCK | O_DIRECTORY | O_CLOEXEC | O_NOCTTY)
        if root >= 0 { return root }
        let code = errno
        if code == EACCES {
            if cks_filesystem_type("/proc/\(processID)/root") == fuseMagic { return nil }
        }
        throw .rootUnreadable(code)
    }

    static func parse(_ bytes: [UInt8]) throws(Failure) -> FlatpakApp {
        let file: KeyFile
        do { file = try KeyFile(parsing: bytes) } catch { throw .malformed("not a key file (\(error))") }
        let group = file.hasGroup("Runtime") ? "Runtime" : "Application"
        guard let name = file.value("name", in: group) else { throw .malformed("no [\(group)] name") }
        guard isValidApplicationID(name) else { throw .malformed("[\(group)] name is not a valid app id") }
        guard let instance = file.value("instance-id", in: "Instance") else { throw .malformed("no [Instance] instance-id") }
        guard isValidInstanceID(instance) else { throw .malformed("[Instance] instance-id is not a valid instance id") }
        return FlatpakApp(applicationID: name, instanceID: instance)
    }

    /// The portal's rule for app ids: at most 255 bytes; at least two dot-separated elements,
    /// none empty; ASCII letters, digits and `_`, and `-` in the last element only.
    package static func isValidApplicationID<Name: StringProtocol>(_ name: Name) -> Bool {
        guard (1...255).contains(name.utf8.count) else { return false }
        let elements = name.split(separator: ".", omittingEmptySubsequences: false)
        guard elements.count >= 2 else { return false }
        for (index, element) in elements.enumerated() {
            let last = index == elements.count - 1
            guard !element.isEmpty, element.allSatisfy({ character in
                character.isASCII && (character.isLetter || character.isNumber || character == "_" || (last && character == "-"))
            }) else { return false }
        }
        return true
    }

    /// Flatpak numbers its instances; allow letters, digits, `.`, `_` and `-`, up to 255 bytes.
    static func isValidInstanceID(_ id: String) -> Bool {
        (1...255).contains(id.utf8.count)
            && id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "_" || $0 == "-") }
    }
}
