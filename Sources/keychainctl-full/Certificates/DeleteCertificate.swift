import ArgumentParser
import Foundation
import KeychainServices

/// `delete-certificate` and `delete-identity`: remove one certificate (with `delete-identity`,
/// also its private key) named by -c or -Z, as `security` does.
struct DeleteCertificate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete-certificate",
        abstract: "Delete a certificate from a keychain.",
        discussion: """
            Deletes the certificate whose name contains -c or whose SHA-1/SHA-256 hash is -Z. A \
            name that matches several certificates is refused (use -Z); no match exits 44 \
            (errSecItemNotFound). -t (delete trust settings too) is accepted: there are none here.
            """)

    @OptionGroup var selection: CertificateSelection

    func validate() throws { try selection.validate() }

    func run() throws { try selection.delete(identity: false, command: "delete-certificate") }
}

struct DeleteIdentity: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete-identity",
        abstract: "Delete a certificate and its private key from a keychain.",
        discussion: """
            Deletes the identity whose name contains -c or whose certificate's SHA-1/SHA-256 hash \
            is -Z: the certificate, and its private key unless another certificate still uses it. \
            A name that matches several identities is refused (use -Z); no match exits 44.
            """)

    @OptionGroup var selection: CertificateSelection

    func validate() throws { try selection.validate() }

    func run() throws { try selection.delete(identity: true, command: "delete-identity") }
}

struct CertificateSelection: ParsableArguments {
    @Option(name: .customShort("c"), help: ArgumentHelp("Text the certificate's name contains.", valueName: "name"))
    var name: String?

    @Option(name: .customShort("Z"), help: ArgumentHelp("The certificate's SHA-1 or SHA-256 hash.", valueName: "hash"))
    var hash: String?

    @Flag(name: .customShort("t"), help: "Also delete user trust settings (there are none here).")
    var trustSettings = false

    @Argument(help: ArgumentHelp("The keychain to delete from.", valueName: "keychain"))
    var keychains: [String] = []

    @OptionGroup var location: KeychainOption

    func validate() throws {
        try location.validate(positional: keychains, allowsSeveral: false)
        if name == nil && hash == nil { throw ValidationError("Name the certificate with -c or -Z.") }
    }

    func delete(identity: Bool, command: String) throws {
        let target = KeychainSession.targets(location.named(keychains))[0]
        _ = try KeychainSession.openForItems(target, accessGroup: nil)
        let (status, found) = CertificateSearch.all(identities: identity)
        if status != errSecSuccess && status != errSecItemNotFound { throw CommandFailure.status(status, "SecItemCopyMatching").about(target) }
        let matches = CertificateSearch.filter(found, name: name, email: nil, hash: hash)
        guard let match = matches.first else { throw CommandFailure.status(errSecItemNotFound, command).about(target) }
        if matches.count > 1 && hash == nil {
            throw CommandFailure.general(command, "\(matches.count) \(identity ? "identities" : "certificates") match \"\(name ?? "")\"; name one with -Z")
        }
        var query: [String: Any]
        if identity, let reference = match.attributes[kSecValueRef as String] as? SecIdentity {
            query = [kSecValueRef as String: reference]
        } else {
            query = [kSecClass as String: kSecClassCertificate, kSecValueRef as String: match.certificate]
        }
        let deleted = SecItemDelete(query as CFDictionary)
        guard deleted == errSecSuccess else { throw CommandFailure.status(deleted, "SecItemDelete").about(target) }
    }
}
