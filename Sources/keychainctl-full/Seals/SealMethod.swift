import ArgumentParser
import Foundation
import KeychainServices
import KeychainStore

/// The machine-held sources a keychain's unlock key can be sealed to (docs/machine-unlock.md).
enum SealMethod: String, ExpressibleByArgument, CaseIterable {
    /// `systemd-creds encrypt`: the host key (/var/lib/systemd/credential.secret), a TPM2, or
    /// both; a unit gets it back in `$CREDENTIALS_DIRECTORY` with `LoadCredentialEncrypted=`.
    case systemdCreds = "systemd-creds"
    /// A TPM2 sealed-data object under the owner hierarchy's primary key, made with tpm2-tools,
    /// optionally bound to PCR values.
    case tpm2

    /// The seal name used when `--name` is not given. For systemd-creds it is also the
    /// credential's name, which a unit's `LoadCredentialEncrypted=` line must repeat.
    var defaultSealName: String {
        switch self {
        case .systemdCreds: "keychain-unlock"
        case .tpm2: "tpm2"
        }
    }

    /// What the record of `record` needs to say about this method, in `show-keychain-info`.
    static func describe(_ record: SealRecord) -> String {
        var parts = [record.method]
        if let key = record.details[SystemdCredsSeal.keyDetail] { parts.append("key \(key)") }
        if let file = record.details[SystemdCredsSeal.fileDetail] { parts.append("credential \(file)") }
        if let pcrs = record.details[TPM2Seal.pcrDetail] { parts.append("PCRs \(pcrs)") }
        return parts.joined(separator: ", ")
    }
}

extension SealMethod {
    /// The `seal-keychain` command line that makes `record` again with every choice it was made
    /// with (its systemd-creds key and credential file, its PCRs), for the hints that ask for a
    /// re-seal. A hint that left one out would have the user weaken the seal by following it:
    /// without `--pcrs` a TPM2 seal no longer checks the boot state.
    static func resealCommand(_ record: SealRecord, target: KeychainSession.Target) -> String {
        var words = [Console.programName, "seal-keychain", "--with", record.method, "--name", record.name]
        if let key = record.details[SystemdCredsSeal.keyDetail] { words += ["--systemd-key", key] }
        if let file = record.details[SystemdCredsSeal.fileDetail] { words += ["--output", file] }
        if let pcrs = record.details[TPM2Seal.pcrDetail] { words += ["--pcrs", pcrs] }
        words.append("--replace")
        return "`" + words.map(ShellQuoting.quote).joined(separator: " ") + target.commandArgument + "`"
    }
}

/// A failure of a sealing tool: the key could not be sealed or given back. errSecNotAvailable
/// (exit 53): the machine's source is not available as it was when the seal was made.
extension CommandFailure {
    static func sealSource(_ context: String, _ message: String, hint: String? = nil) -> CommandFailure {
        CommandFailure(status: errSecNotAvailable, context: context, message: message, hint: hint)
    }
}
