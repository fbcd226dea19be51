import Foundation
import Testing

/// Certificates, keys and PKCS#12 files made by the real `openssl` in a fresh folder, for the
/// certificate and trust tests: a root CA, an intermediate, leaves signed by them (EC and RSA,
/// with host names and e-mail addresses), and PKCS#12 files in OpenSSL 3's default encryption
/// and in the legacy one.
final class OpenSSLFixtures: @unchecked Sendable {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("swift-keychain-certs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
    func data(_ name: String) throws -> Data { try Data(contentsOf: directory.appendingPathComponent(name)) }

    /// Runs openssl with `arguments` in the folder; fails the test with its output when it fails.
    @discardableResult
    func openssl(_ arguments: [String], input: Data? = nil) throws -> Data {
        try Self.run("/usr/bin/openssl", arguments, in: directory, input: input)
    }

    func write(_ name: String, _ text: String) throws {
        try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    /// A self-signed CA (`name`.pem/.der/.key).
    func makeCA(_ name: String, subject: String, keyType: KeyType = .ec) throws {
        try openssl(["req", "-x509", "-new"] + keyType.newKeyArguments + ["-nodes", "-keyout", "\(name).key", "-out", "\(name).pem",
                     "-subj", subject, "-days", "3650",
                     "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
                     "-addext", "subjectKeyIdentifier=hash"])
        try toDER(name)
    }

    /// A certificate for `subject` signed by `issuer` (`name`.pem/.der/.key), with extra
    /// extension lines (`subjectAltName = …`, `extendedKeyUsage = …`).
    func makeLeaf(_ name: String, subject: String, issuer: String, keyType: KeyType = .ec,
                  extensions: [String] = [], days: Int = 30, serial: String? = nil) throws {
        try openssl(["req", "-new"] + keyType.newKeyArguments + ["-nodes", "-keyout", "\(name).key", "-out", "\(name).csr", "-subj", subject])
        try write("\(name).ext", (["subjectKeyIdentifier = hash", "authorityKeyIdentifier = keyid"] + extensions).joined(separator: "\n") + "\n")
        try openssl(["x509", "-req", "-in", "\(name).csr", "-CA", "\(issuer).pem", "-CAkey", "\(issuer).key",
                     "-set_serial", serial ?? "0x\(String(UInt64.random(in: 1...UInt64(Int64.max)), radix: 16))",
                     "-days", String(days), "-extfile", "\(name).ext", "-out", "\(name).pem"])
        try toDER(name)
    }

    private func toDER(_ name: String) throws {
        try openssl(["x509", "-in", "\(name).pem", "-outform", "DER", "-out", "\(name).der"])
    }

    /// A PKCS#12 file of `name`'s key and certificate and the `chain` certificates.
    func makePKCS12(_ file: String, key name: String, chain: [String] = [], password: String,
                    friendlyName: String? = nil, extra: [String] = []) throws {
        if !chain.isEmpty {
            let pem = try chain.map { try String(contentsOf: directory.appendingPathComponent("\($0).pem"), encoding: .utf8) }.joined()
            try write("\(file).chain.pem", pem)
        }
        var arguments = ["pkcs12", "-export", "-inkey", "\(name).key", "-in", "\(name).pem", "-out", file, "-passout", "pass:\(password)"]
        if !chain.isEmpty { arguments += ["-certfile", "\(file).chain.pem"] }
        if let friendlyName { arguments += ["-name", friendlyName] }
        try openssl(arguments + extra)
    }

    /// Hex of what openssl prints after `prefix=` (`-serial`, for instance).
    func printed(_ arguments: [String]) throws -> String {
        String(decoding: try openssl(arguments), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    enum KeyType {
        case ec, ecP384, rsa
        var newKeyArguments: [String] {
            switch self {
            case .ec: return ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"]
            case .ecP384: return ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-384"]
            case .rsa: return ["-newkey", "rsa:2048"]
            }
        }
    }

    struct CommandFailed: Error, CustomStringConvertible {
        let description: String
    }

    static func run(_ executable: String, _ arguments: [String], in directory: URL, input: Data? = nil) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let output = Pipe(), errors = Pipe(), stdin = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(input) }
        try stdin.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let messages = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CommandFailed(description: "\(executable) \(arguments.joined(separator: " ")) exited \(process.terminationStatus): \(String(decoding: messages, as: UTF8.self))")
        }
        return data
    }
}
