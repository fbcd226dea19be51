import ArgumentParser
import Foundation
import KeychainServices

/// `import` of certificates and PKCS#12 files, as `security import` does: a PKCS#12 file's
/// identities (certificate and private key) and its other certificates, or the certificates of a
/// DER or PEM file, are added to the keychain.
enum CertificateImport {
    enum Kind { case pkcs12, certificates }

    /// What `file` is, from -f / -t or else its extension (.p12/.pfx; .cer/.crt/.der/.pem);
    /// nil for anything else (a keychain backup).
    static func kind(of file: String, format: ImportFileFormat?, type: ImportItemType?) -> Kind? {
        if format == .pkcs12 || type == .agg { return .pkcs12 }
        if type == .cert || format == .pemseq || format == .x509 { return .certificates }
        guard format == nil, type == nil else { return nil }
        switch URL(fileURLWithPath: file).pathExtension.lowercased() {
        case "p12", "pfx": return .pkcs12
        case "cer", "crt", "der", "pem": return .certificates
        default: return nil
        }
    }

    static func run(_ kind: Kind, file: String, passphrase: String?, target: KeychainSession.Target) throws {
        _ = try KeychainSession.openForItems(target, accessGroup: nil)
        guard let contents = FileManager.default.contents(atPath: file) else { throw CommandFailure.status(errSecIO, "import \(file)") }
        switch kind {
        case .certificates:
            let certificates = try certificatesIn(contents, file: file)
            var added = 0
            for certificate in certificates {
                let status = SecItemAdd([kSecValueRef as String: certificate] as CFDictionary, nil)
                if status == errSecSuccess { added += 1 } else if status != errSecDuplicateItem {
                    throw CommandFailure.status(status, "SecItemAdd").about(target)
                }
            }
            guard added > 0 else { throw CommandFailure.status(errSecDuplicateItem, "SecKeychainItemImport").about(target) }
            Console.out("\(added) certificate\(added == 1 ? "" : "s") imported.\n")
        case .pkcs12:
            let secret = try PasswordArgument.resolve(passphrase ?? PasswordArgument.readMarker, prompt: "passphrase for \(file): ",
                                                      confirmPrompt: nil, context: "SecKeychainItemImport")
            var items: CFArray?
            let options = [kSecImportExportPassphrase as String: String(decoding: secret, as: UTF8.self)]
            let status = SecPKCS12Import(contents as CFData, options as CFDictionary, &items)
            guard status == errSecSuccess else { throw CommandFailure.status(status, "SecKeychainItemImport").about(target) }
            var identities = 0, certificates = 0
            for item in items as? [[String: Any]] ?? [] {
                guard let identity = item[kSecImportItemIdentity as String] as? SecIdentity else { continue }
                var attributes: [String: Any] = [kSecValueRef as String: identity]
                if let label = item[kSecImportItemLabel as String] as? String { attributes[kSecAttrLabel as String] = label }
                let added = SecItemAdd(attributes as CFDictionary, nil)
                if added == errSecSuccess { identities += 1 } else if added != errSecDuplicateItem {
                    throw CommandFailure.status(added, "SecItemAdd").about(target)
                }
                for certificate in (item[kSecImportItemCertChain as String] as? [SecCertificate] ?? []).dropFirst() {
                    if SecItemAdd([kSecValueRef as String: certificate] as CFDictionary, nil) == errSecSuccess { certificates += 1 }
                }
            }
            guard identities + certificates > 0 else { throw CommandFailure.status(errSecDuplicateItem, "SecKeychainItemImport").about(target) }
            if identities > 0 { Console.out("\(identities) identit\(identities == 1 ? "y" : "ies") imported.\n") }
            if certificates > 0 { Console.out("\(certificates) certificate\(certificates == 1 ? "" : "s") imported.\n") }
        }
    }

    /// The certificates of a DER file or of a PEM file with one or more certificates.
    static func certificatesIn(_ contents: Data, file: String) throws -> [SecCertificate] {
        if let certificate = SecCertificateCreateWithData(nil, contents as CFData) { return [certificate] }
        guard let text = String(data: contents, encoding: .utf8), text.contains("-----BEGIN CERTIFICATE-----") else {
            throw CommandFailure.status(errSecUnknownFormat, "import \(file)")
        }
        var certificates: [SecCertificate] = []
        for block in text.components(separatedBy: "-----BEGIN CERTIFICATE-----").dropFirst() {
            guard let body = block.components(separatedBy: "-----END CERTIFICATE-----").first,
                  let der = Data(base64Encoded: body.filter { !$0.isWhitespace }),
                  let certificate = SecCertificateCreateWithData(nil, der as CFData) else {
                throw CommandFailure.status(errSecUnknownFormat, "import \(file)")
            }
            certificates.append(certificate)
        }
        return certificates
    }
}

/// `security import`'s -f values that mean certificates or PKCS#12 here.
enum ImportFileFormat: String, ExpressibleByArgument, CaseIterable {
    case pkcs12, pemseq, x509
}

/// `security import`'s -t values that mean certificates or PKCS#12 here.
enum ImportItemType: String, ExpressibleByArgument, CaseIterable {
    case cert, agg
}
