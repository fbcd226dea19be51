import Foundation
import KeychainServices
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `export` of certificates, keys and identities, as `security export` does (the other half of
/// ``Export``, which otherwise writes keychain backups).
enum ItemExport {
    /// Extensions of the files this half writes; an `-o` file ending so selects it even without
    /// -t/-f/-w/-p, as `import` picks certificate files by extension.
    static let fileExtensions: Set<String> = ["p12", "pfx", "pem", "cer", "crt", "der", "p7b", "p7c", "p8", "key"]

    /// The format an `-o` name implies when -f is absent, as `import` reads files by extension;
    /// other names leave `security`'s default.
    static func format(impliedBy output: String?) -> ExportFormat? {
        guard let output else { return nil }
        switch URL(fileURLWithPath: output).pathExtension.lowercased() {
        case "p12", "pfx": return .pkcs12
        case "p7b", "p7c": return .pkcs7
        case "p8": return .pkcs8
        default: return nil
        }
    }

    struct Request {
        var type: ExportItemType
        var format: ExportFormat?
        var pem: Bool
        var wrapped: Bool
        var output: String?
        var passphrase: String?
        var force: Bool
    }

    static func run(_ request: Request, target: KeychainSession.Target) throws {
        let context = ExportEncoder.context
        let destination = request.output.map { URL(fileURLWithPath: $0) }
        if let destination, !request.force { try BackupDestination.refuseExisting(destination, context: context) }
        _ = try KeychainSession.openForItems(target, accessGroup: nil)
        let objects = try CommandFailure.about(target) { () throws(CommandFailure) -> [ExportObject] in
            try ExportObjects.gather(request.type)
        }
        let format = request.format ?? format(impliedBy: request.output) ?? ExportEncoder.defaultFormat(for: objects)
        let encoder = ExportEncoder(format: format,
                                    pem: request.pem, wrapped: request.wrapped)
        try encoder.check(objects)
        var secret: String?
        if encoder.needsPassphrase(objects) {
            let bytes = try PasswordArgument.resolve(request.passphrase ?? PasswordArgument.readMarker,
                                                     prompt: "passphrase for the exported file: ",
                                                     confirmPrompt: "retype passphrase for the exported file: ", context: context)
            secret = String(decoding: bytes, as: UTF8.self)
        }
        let bytes: [UInt8]
        do { bytes = try encoder.encode(objects, passphrase: secret) } catch let failure as CommandFailure {
            throw failure
        } catch {
            // The reasons come from key conversion and never carry key material.
            throw CommandFailure.general(context, "The items could not be encoded as \(encoder.format.rawValue) (\(error)).")
        }
        guard let destination else { return Console.outBytes(bytes) }
        try BackupDestination.write(to: destination, replacing: request.force, context: context) { url throws(CommandFailure) in
            try writeNewFile(url, bytes, context: context)
        }
        Console.out("\(objects.count) item\(objects.count == 1 ? "" : "s") exported.\n")
    }

    /// Creates `url` (never an existing file) readable by its owner only, as `security` creates
    /// its output files, whether or not it holds a private key.
    static func writeNewFile(_ url: URL, _ bytes: [UInt8], context: String) throws(CommandFailure) {
        let fd = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw ioFailure(url, context: context) }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                let failure = ioFailure(url, context: context)
                close(fd)
                unlink(url.path)
                throw failure
            }
            written += count
        }
        let synced = fsync(fd) == 0
        guard close(fd) == 0, synced else {
            let failure = ioFailure(url, context: context)
            unlink(url.path)
            throw failure
        }
    }

    private static func ioFailure(_ url: URL, context: String) -> CommandFailure {
        CommandFailure(status: errSecIO, context: context,
                       message: "\(url.path) could not be written (\(String(cString: strerror(errno)))).",
                       hint: "Check that the folder exists and is writable.")
    }
}
