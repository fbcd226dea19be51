import Foundation
import KeychainStore

/// Sealing to a TPM2 with tpm2-tools: the unlock key becomes a sealed-data object under the
/// owner hierarchy's primary key (ECC, the tools' default template, which the TPM derives again
/// from its seed at every unseal, so nothing of it is stored). The object's public and private
/// parts (the private part encrypted by the TPM) are kept in the seal record. With PCRs, the
/// object has a policy that opens it only while those PCRs hold the values they held at sealing.
///
/// The unlock key crosses the bus between the CPU and the TPM twice: into `TPM2_Create` at
/// sealing and out of `TPM2_Unseal`. Both commands run with an extra session salted with the
/// primary key (whose private part never leaves the TPM) and with parameter encryption set:
/// decrypt for the key going in, encrypt for the key coming out. Someone listening on the bus
/// (a logic analyser on an LPC or SPI TPM, an interposer) sees only AES-CFB ciphertext under
/// a session key derived from the salt, which only the TPM can read (docs/machine-unlock.md).
///
/// The tools reach the TPM through their usual TCTI (`/dev/tpmrm0`, or `TPM2TOOLS_TCTI`, as the
/// tests' software TPM is reached). Transient objects are flushed after every step, since
/// without the kernel's resource manager they would fill the TPM's few object slots; the
/// encryption session lives from its start to the end of the operation, then is flushed.
enum TPM2Seal {
    static let pcrDetail = "pcrs"
    static let primaryDetail = "primary"
    static let package = "tpm2-tools"
    /// The context file of the salted session that encrypts the key's way over the bus.
    static let sessionFile = "session.ctx"

    static func seal(_ payload: Data, pcrs: String?, context: String) throws(CommandFailure) -> Data {
        try withScratchFolder(context: context) { folder throws(CommandFailure) in
            try step("tpm2_createprimary", ["-Q", "-C", "o", "-G", "ecc", "-c", "primary.ctx"], in: folder, context: context)
            var create = ["-Q", "-C", "primary.ctx", "-i", "-", "-u", "seal.pub", "-r", "seal.priv"]
            if let pcrs {
                try step("tpm2_createpolicy", ["-Q", "--policy-pcr", "-l", pcrs, "-L", "pcr.policy"], in: folder, context: context)
                create += ["-L", "pcr.policy"]
            }
            try startEncryptionSession(in: folder, context: context)
            try step("tpm2_create", create + ["-S", sessionFile], input: payload, in: folder, context: context)
            guard let pub = FileManager.default.contents(atPath: folder.appendingPathComponent("seal.pub").path),
                  let priv = FileManager.default.contents(atPath: folder.appendingPathComponent("seal.priv").path),
                  pub.count < 0x10000 else {
                throw .sealSource(context, "tpm2_create wrote no sealed object.")
            }
            var blob = Data([UInt8(pub.count >> 8), UInt8(pub.count & 0xFF)])
            blob.append(pub)
            blob.append(priv)
            return blob
        }
    }

    static func unseal(_ record: SealRecord, target: KeychainSession.Target, context: String) throws(CommandFailure) -> Data {
        let blob = [UInt8](record.sealed)
        guard blob.count > 2, case let pubCount = Int(blob[0]) << 8 | Int(blob[1]), blob.count > 2 + pubCount else {
            throw .general(context, "the seal '\(record.name)' holds no TPM2 object (damaged).", hint: "Remove it and seal the keychain again.")
        }
        return try withScratchFolder(context: context) { folder throws(CommandFailure) in
            do {
                try Data(blob[2..<2 + pubCount]).write(to: folder.appendingPathComponent("seal.pub"))
                try Data(blob[(2 + pubCount)...]).write(to: folder.appendingPathComponent("seal.priv"))
            } catch {
                throw .general(context, "the TPM2 object could not be written to a temporary folder.")
            }
            try step("tpm2_createprimary", ["-Q", "-C", "o", "-G", "ecc", "-c", "primary.ctx"], in: folder, context: context)
            try step("tpm2_load", ["-Q", "-C", "primary.ctx", "-u", "seal.pub", "-r", "seal.priv", "-c", "seal.ctx"], in: folder, context: context,
                     failure: "the TPM refused to load the seal '\(record.name)' (another TPM, a cleared owner hierarchy, or a damaged seal)")
            try startEncryptionSession(in: folder, context: context)
            // The PCR policy session (when there is one) authorises; the salted session, an
            // extra one, only encrypts the response.
            var unseal = ["-c", "seal.ctx", "-S", sessionFile]
            if let pcrs = record.details[pcrDetail] { unseal += ["-p", "pcr:\(pcrs)"] }
            return try step("tpm2_unseal", unseal, in: folder, context: context,
                            failure: record.details[pcrDetail].map { "the TPM refused to unseal '\(record.name)': PCRs \($0) no longer hold the values they held when it was sealed" }
                                ?? "the TPM refused to unseal '\(record.name)'",
                            hint: record.details[pcrDetail].map { _ in
                                "If the change was expected (a firmware or boot loader update), unlock with the password and seal again to the same PCRs with \(SealMethod.resealCommand(record, target: target))."
                            })
        }
    }

    /// Starts the HMAC session salted with the primary key in `primary.ctx` and sets both
    /// parameter encryptions on it. Set explicitly rather than left to the tool's defaults:
    /// `--tpmkey-context` salts the session and leaves encryption off.
    private static func startEncryptionSession(in folder: URL, context: String) throws(CommandFailure) {
        try step("tpm2_startauthsession", ["--hmac-session", "--tpmkey-context", "primary.ctx", "-S", sessionFile], in: folder, context: context)
        try step("tpm2_sessionconfig", ["--enable-decrypt", "--enable-encrypt", sessionFile], in: folder, context: context)
    }

    /// Runs one tool, then flushes transient objects; a failure names the tool. Sessions stay
    /// until the end of the operation (``withScratchFolder(context:_:)``), as the encryption
    /// session is used by a later step than the one that starts it.
    @discardableResult
    private static func step(_ name: String, _ arguments: [String], input: Data = Data(), in folder: URL, context: String,
                             failure: String? = nil, hint: String? = nil) throws(CommandFailure) -> Data {
        let output = try ExternalTool(name: name).run(arguments, input: input, in: folder, context: context, package: package)
        flush(["-t"], in: folder, context: context)
        guard output.status == 0 else {
            throw .sealSource(context, (failure ?? "\(name) failed") + ExternalTool.summary(output.stderr) + ".",
                              hint: hint ?? "tpm2-tools reach the TPM through /dev/tpmrm0 or TPM2TOOLS_TCTI; check that it is there and usable by this user.")
        }
        return output.stdout
    }

    private static func flush(_ arguments: [String], in folder: URL, context: String) {
        _ = try? ExternalTool(name: "tpm2_flushcontext").run(arguments, in: folder, context: context, package: package)
    }

    /// A private folder for the tools' context files, removed afterwards, once the encryption
    /// session (if one was started) and sessions the tools left are flushed.
    private static func withScratchFolder<T>(context: String, _ body: (URL) throws(CommandFailure) -> T) throws(CommandFailure) -> T {
        // mkdtemp makes it 0700 in one step: createDirectory(attributes:) makes it with the
        // umask's mode and only then changes it, a moment in which, under a permissive umask,
        // another user could plant links where the blobs are written.
        var template = Array((FileManager.default.temporaryDirectory.path + "/keychainctl-tpm2-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw .general(context, "a temporary folder for the TPM2 tools could not be made.")
        }
        let folder = URL(fileURLWithPath: String(cString: made), isDirectory: true)
        defer {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent(sessionFile).path) {
                flush([sessionFile], in: folder, context: context)
            }
            // Loaded ones too: given an extra session, tpm2_unseal leaves its PCR policy
            // session loaded (the kernel's resource manager would flush it as the tool exits;
            // a TPM reached directly keeps it and runs out of session slots).
            for kind in ["-s", "-l"] { flush([kind], in: folder, context: context) }
            try? FileManager.default.removeItem(at: folder)
        }
        return try body(folder)
    }
}
