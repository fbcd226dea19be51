import KeychainctlCommandLine
import ArgumentParser
import Foundation
import KeychainServices

/// `find-certificate`: prints certificates of the keychain as `security find-certificate` does.
struct FindCertificate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "find-certificate",
        abstract: "Find a certificate item.",
        discussion: """
            Prints the first certificate (every one with -a) whose name contains -c, that is for \
            the e-mail address -e, or whose SHA-1 or SHA-256 hash is -Z's value: its attributes, \
            or with -Z its hashes first, with -p the certificate in PEM form instead of the \
            attributes, with -m its e-mail addresses. No match exits 44 (errSecItemNotFound).
            """)

    @Flag(name: .customShort("a"), help: "Every matching certificate, not only the first.")
    var all = false

    @Option(name: .customShort("c"), help: ArgumentHelp("Text the certificate's name contains.", valueName: "name"))
    var name: String?

    @Option(name: .customShort("e"), help: ArgumentHelp("An e-mail address the certificate is for.", valueName: "emailAddress"))
    var email: String?

    @Flag(name: .customShort("m"), help: "Print the certificate's e-mail addresses.")
    var showEmail = false

    @Flag(name: .customShort("p"), help: "Print the certificate in PEM form.")
    var pem = false

    @Flag(name: .customShort("Z"), help: "Print the certificate's SHA-256 and SHA-1 hashes.")
    var hashes = false

    @Argument(help: ArgumentHelp("The keychain to search.", valueName: "keychain"))
    var keychains: [String] = []

    @OptionGroup var location: KeychainOption

    func validate() throws {
        try location.validate(positional: keychains, allowsSeveral: false)
    }

    func run() throws {
        let target = KeychainSession.targets(location.named(keychains))[0]
        _ = try KeychainSession.openForItems(target, accessGroup: nil)
        let (status, found) = CertificateSearch.all(identities: false)
        if status != errSecSuccess && status != errSecItemNotFound { throw CommandFailure.status(status, "SecItemCopyMatching").about(target) }
        var matches = CertificateSearch.filter(found, name: name, email: email, hash: nil)
        guard !matches.isEmpty else { throw CommandFailure.status(errSecItemNotFound, "SecKeychainSearchCopyNext").about(target) }
        if !all { matches = [matches[0]] }
        var text = ""
        for match in matches {
            if hashes {
                text += "SHA-256 hash: \(match.sha256)\n"
                text += "SHA-1 hash: \(match.sha1)\n"
            }
            if showEmail {
                var addresses: CFArray?
                _ = SecCertificateCopyEmailAddresses(match.certificate, &addresses)
                text += "email addresses: " + ((addresses as? [String]) ?? []).joined(separator: " ") + "\n"
            }
            if pem {
                text += CertificateSearch.pem(match.der)
            } else if !hashes && !showEmail {
                text += CertificatePrinter.render(match.attributes, keychain: target.url)
            }
        }
        Console.out(text)
    }
}

/// A certificate item in `security`'s attribute listing.
enum CertificatePrinter {
    /// The attributes macOS lists for certificates, with its tags: label and alias are numbered,
    /// the public key hash is `hpky`, the issuer `issu`, the serial number `snbr`.
    static let fields: [(tag: String, attribute: String, format: String)] = [
        ("alis", "alis", "blob"), ("cenc", "cenc", "uint32"), ("ctyp", "ctyp", "uint32"), ("hpky", "pkhh", "blob"),
        ("issu", "issr", "blob"), ("labl", "labl", "blob"), ("skid", "skid", "blob"), ("snbr", "slnr", "blob"),
        ("subj", "subj", "blob"),
    ]

    static func render(_ attributes: [String: Any], keychain: URL) -> String {
        var text = "keychain: " + SecurityFormat.buffer(Array(keychain.path.utf8)) + "\n"
        text += "version: 512\n"
        text += "class: 0x80001000 \n"
        text += "attributes:\n"
        for field in fields {
            let value: String
            if field.format == "uint32", let number = attributes[field.attribute] as? NSNumber {
                value = SecurityFormat.uint32(UInt32(truncatingIfNeeded: number.int64Value))
            } else {
                value = ItemPrinter.value(attributes[field.attribute])
            }
            text += "    \"\(field.tag)\"<\(field.format)>=\(value)\n"
        }
        return text
    }
}
