import Foundation
import KeychainStore

/// Sealing with `systemd-creds`: the unlock key is encrypted with the machine's credential key
/// (`--with-key=host`: /var/lib/systemd/credential.secret, readable by root; `tpm2`; or both),
/// stored in the seal record, and written as a credential file a unit loads with
/// `LoadCredentialEncrypted=NAME:FILE`. systemd decrypts it at the unit's start and hands the
/// plain key to the unit in `$CREDENTIALS_DIRECTORY/NAME`, where `unlock-keychain --sealed`
/// finds it.
enum SystemdCredsSeal {
    static let keyDetail = "key"
    static let fileDetail = "credential-file"
    static let nameDetail = "credential-name"
    static let package = "systemd"
    /// Where `systemd-creds` stores the host key; named in hints only.
    static let hostKeyFile = "/var/lib/systemd/credential.secret"
    static let keyKinds = ["auto", "host", "tpm2", "host+tpm2"]

    private static var tool: ExternalTool { ExternalTool(name: "systemd-creds") }

    /// Encrypts `payload`; returns the credential (text, as systemd-creds writes it).
    static func seal(_ payload: Data, credentialName: String, key: String, context: String) throws(CommandFailure) -> Data {
        let output = try tool.run(["encrypt", "--name=\(credentialName)", "--with-key=\(key)", "-", "-"], input: payload,
                                  context: context, package: package)
        guard output.status == 0, !output.stdout.isEmpty else {
            throw .sealSource(context, "systemd-creds could not encrypt the unlock key\(ExternalTool.summary(output.stderr)).",
                              hint: "With --systemd-key host it needs to read \(hostKeyFile) (run as root; `systemd-creds setup` creates it); tpm2 needs a TPM2 device.")
        }
        return output.stdout
    }

    /// The unlock key, from (in this order) `credentialFile`, the unit's `$CREDENTIALS_DIRECTORY`,
    /// or by decrypting the stored credential with `systemd-creds decrypt`.
    static func unseal(_ record: SealRecord, credentialFile: URL?, context: String) throws(CommandFailure) -> Data {
        if let credentialFile { return try readPlainCredential(credentialFile, context: context) }
        let name = record.details[nameDetail] ?? record.name
        if let folder = ProcessInfo.processInfo.environment["CREDENTIALS_DIRECTORY"], !folder.isEmpty {
            let file = URL(fileURLWithPath: folder).appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: file.path) { return try readPlainCredential(file, context: context) }
        }
        let output = try tool.run(["decrypt", "--name=\(name)", "-", "-"], input: record.sealed, context: context, package: package)
        guard output.status == 0 else {
            throw .sealSource(context, "systemd-creds could not decrypt the seal '\(record.name)'\(ExternalTool.summary(output.stderr)).",
                              hint: "It needs the key it was made with (\(record.details[keyDetail] ?? "auto")); in a unit, load it with LoadCredentialEncrypted=\(name):FILE.")
        }
        return output.stdout
    }

    /// A decrypted credential as systemd hands it to a unit (or `--credential FILE` names it):
    /// the unlock key's bytes, nothing else. Larger files are refused unread.
    static func readPlainCredential(_ url: URL, context: String) throws(CommandFailure) -> Data {
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw .general(context, "the credential \(url.path) cannot be read.", hint: "Check the path and its permissions.")
        }
        defer { try? handle.close() }
        let data = (try? handle.read(upToCount: 4096)) ?? nil
        return data ?? Data()
    }
}
