import ArgumentParser
import Foundation
import KeychainServices
import KeychainStore

/// `seal-keychain`: seals the keychain's unlock key to a source the machine holds, so that
/// `unlock-keychain --sealed` can unlock it without a person (docs/machine-unlock.md).
struct SealKeychain: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seal-keychain",
        abstract: "Seal a keychain's unlock key to this machine (systemd credential or TPM2).",
        discussion: """
            Asks for the keychain password (as unlock-keychain does: -p, --password-fd, or a \
            prompt), derives the key it unlocks the keychain with, and seals that key, never the \
            password, with the machine's tool: --with systemd-creds (systemd-creds encrypt, with \
            the host key, a TPM2 or both, --systemd-key) also writes the credential to --output \
            for a unit's LoadCredentialEncrypted=; --with tpm2 makes a TPM2 sealed object \
            (tpm2-tools), bound to PCR values with --pcrs. The seal is recorded in the keychain \
            under --name, listed by show-keychain-info and removed by remove-seal. A password \
            change makes it stale (it then refuses to unlock); seal again with --replace. \
            \(PasswordArgument.warning(flag: "-p"))
            """)

    @Option(name: .customLong("with"), help: ArgumentHelp("What to seal to: systemd-creds or tpm2.", valueName: "source"))
    var method: SealMethod

    @Option(name: .customLong("name"),
            help: ArgumentHelp("The seal's name (default: keychain-unlock for systemd-creds, which is also the credential's name; tpm2 for tpm2).", valueName: "name"))
    var name: String?

    @Option(name: .customLong("output"),
            help: ArgumentHelp("systemd-creds: where to write the encrypted credential (default: beside the keychain, NAME.cred).", valueName: "file"))
    var output: String?

    @Option(name: .customLong("systemd-key"),
            help: ArgumentHelp("systemd-creds: the key to encrypt with: auto, host, tpm2 or host+tpm2 (default auto).", valueName: "key"))
    var systemdKey: String = "auto"

    @Option(name: .customLong("pcrs"),
            help: ArgumentHelp("tpm2: open only while these PCRs hold their present values, e.g. sha256:0,7 (default: no PCR policy).", valueName: "pcrs"))
    var pcrs: String?

    @Flag(name: .customLong("replace"), help: "Replace an existing seal of the same name.")
    var replace = false

    @Option(name: [.customShort("p"), .customLong("password")], parsing: .unconditional,
            help: ArgumentHelp("The keychain password. Give -p last, or -p -, to be prompted without echo.", valueName: "password"))
    var password: String?

    @Option(name: .customLong("password-fd"),
            help: ArgumentHelp("Read the password as one line from this open file descriptor (- for standard input).", valueName: "fd"))
    var passwordFD: PasswordDescriptor?

    @OptionGroup var location: KeychainOption

    @Argument(help: ArgumentHelp("The keychain (instead of --keychain).", valueName: "keychain"))
    var keychains: [String] = []

    func validate() throws {
        try location.validate(positional: keychains, allowsSeveral: false)
        if passwordFD != nil && password != nil { throw ValidationError("Give --password-fd or -p, not both.") }
        if let name, !SealRecord.isValidName(name) {
            throw ValidationError("A seal's name is 1 to 64 letters, digits, '.', '_' or '-', not starting with '.'.")
        }
        if method != .systemdCreds && (output != nil || systemdKey != "auto") {
            throw ValidationError("--output and --systemd-key apply to --with systemd-creds only.")
        }
        if method != .tpm2 && pcrs != nil { throw ValidationError("--pcrs applies to --with tpm2 only.") }
        if !SystemdCredsSeal.keyKinds.contains(systemdKey) {
            throw ValidationError("--systemd-key is one of \(SystemdCredsSeal.keyKinds.joined(separator: ", ")).")
        }
        if let pcrs, pcrs.isEmpty || !pcrs.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || ":,+".contains($0)) }) {
            throw ValidationError("--pcrs takes a PCR selection such as sha256:0,7.")
        }
    }

    func run() throws {
        let target = KeychainSession.targets(location.named(keychains))[0]
        let context = "SecKeychainSeal \(target.url.path)"
        let sealName = name ?? method.defaultSealName
        let file = try KeychainSession.open(target)
        guard try KeychainAdministration.hasPassword(file, context: context) else {
            throw CommandFailure.general(context, "\(target.url.path) has no password, so there is no unlock key to seal: it opens with the device key alone.",
                                         hint: "Set one first with `\(Console.programName) set-keychain-password\(target.commandArgument)`.")
        }
        if !replace, try KeychainAdministration.sealStatuses(file, context: context).contains(where: { $0.record.name == sealName }) {
            throw CommandFailure.status(errSecDuplicateItem, context,
                                        hint: "The keychain already has a seal named '\(sealName)'; give --replace to replace it, or another --name.")
        }
        let prompt = "password to seal \(target.url.path): "
        let secret = if let passwordFD {
            try passwordFD.read(prompt: prompt, context: context)
        } else {
            try PasswordArgument.resolve(password ?? PasswordArgument.readMarker, prompt: prompt, confirmPrompt: nil, context: context)
        }
        let unlockKey: (key: SealedUnlockKey, passwordParameters: Data)
        do throws(CommandFailure) {
            unlockKey = try KeychainAdministration.unlockKeyForSealing(file, password: secret, context: context)
        } catch {
            throw error.replacingHint(for: errSecAuthFailed, with: "The password of \(target.url.path) was not accepted; nothing was sealed.")
        }
        var details: [String: String] = [:]
        let sealed: Data
        switch method {
        case .systemdCreds:
            sealed = try SystemdCredsSeal.seal(unlockKey.key.encoded, credentialName: sealName, key: systemdKey, context: context)
            let credentialFile = output.map { URL(fileURLWithPath: $0) } ?? Self.defaultCredentialFile(target.url, sealName)
            details = [SystemdCredsSeal.keyDetail: systemdKey, SystemdCredsSeal.fileDetail: credentialFile.path,
                       SystemdCredsSeal.nameDetail: sealName]
        case .tpm2:
            sealed = try TPM2Seal.seal(unlockKey.key.encoded, pcrs: pcrs, context: context)
            details = [TPM2Seal.primaryDetail: "owner/ecc"]
            if let pcrs { details[TPM2Seal.pcrDetail] = pcrs }
        }
        let record = SealRecord(name: sealName, method: method.rawValue, created: Date(),
                                passwordParameters: unlockKey.passwordParameters, keyCheck: unlockKey.key.checkValue,
                                details: details, sealed: sealed)
        try KeychainAdministration.addSeal(file, record, replacing: replace, context: context)
        // The credential file only once the record that names it is stored; a file that cannot
        // be written takes the record back out, so nothing names a file that is not there.
        if let path = details[SystemdCredsSeal.fileDetail] {
            do throws(CommandFailure) {
                try Self.writeCredential(sealed, to: URL(fileURLWithPath: path), context: context)
            } catch {
                try? file.removeSeal(named: sealName)
                throw error
            }
        }
        Console.out("sealed \(target.url.path) as '\(sealName)' (\(SealMethod.describe(record)))\n")
        if method == .systemdCreds, let credentialFile = details[SystemdCredsSeal.fileDetail] {
            Console.out("unit: LoadCredentialEncrypted=\(sealName):\(credentialFile)\n")
        }
    }

    /// Beside the keychain: `work.keychain-db` and seal `boot` give `work.boot.cred`.
    static func defaultCredentialFile(_ keychain: URL, _ sealName: String) -> URL {
        let base = keychain.deletingPathExtension().lastPathComponent
        return keychain.deletingLastPathComponent().appendingPathComponent("\(base).\(sealName).cred")
    }

    /// Writes the encrypted credential, 0600, replacing an older one by rename.
    static func writeCredential(_ data: Data, to url: URL, context: String) throws(CommandFailure) {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString)")
        // Made 0600 and new (never through a link): FileManager.createFile writes with the
        // umask's mode and changes it afterwards, and leaves the file behind when that fails.
        guard writeNewPrivateFile(data, at: temporary.path) else {
            throw .general(context, "the credential could not be written beside \(url.path).", hint: "Choose a writable place with --output.")
        }
        guard rename(temporary.path, url.path) == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            throw .general(context, "the credential could not be written to \(url.path).", hint: "Choose a writable place with --output.")
        }
    }

    /// Creates `path` (which must not exist) with mode 0600 and writes `data`; on any failure
    /// nothing is left at `path`.
    static func writeNewPrivateFile(_ data: Data, at path: String) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return false }
        var written = 0
        let complete = data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Bool in
            while written < bytes.count {
                let count = write(fd, bytes.baseAddress! + written, bytes.count - written)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                written += count
            }
            return true
        }
        let closed = close(fd) == 0
        if !(complete && closed) { unlink(path) }
        return complete && closed
    }
}
