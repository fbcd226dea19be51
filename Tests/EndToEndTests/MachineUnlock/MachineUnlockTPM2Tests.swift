import Foundation
import Testing

/// `seal-keychain --with tpm2` against the software TPM swtpm, started by each test on loopback
/// and reached by tpm2-tools (and so keychainctl) through `TPM2TOOLS_TCTI`.
@Suite(.enabled(if: MachineUnlockTools.hasTPM2 || MachineUnlockTools.isCI,
                "swtpm and tpm2-tools are not installed (Debian: swtpm, swtpm-tools, tpm2-tools); CI installs them"))
struct MachineUnlockTPM2Tests {
    static func lockedKeychain(_ sandbox: CLISandbox) throws -> String {
        let path = sandbox.path("locked.keychain-db")
        try #require(try sandbox.run(["create-keychain", "-p", "pw", path]).status == 0)
        try sandbox.addGeneric(account: "alice", service: "guarded", password: "inside", extra: [path])
        return path
    }

    static func seal(_ sandbox: CLISandbox, _ tpm: SoftwareTPM, _ path: String, _ extra: [String] = []) throws -> CLIResult {
        try sandbox.run(["seal-keychain", "--with", "tpm2", "--password-fd", "-"] + extra + [path], stdin: "pw\n", environment: tpm.environment)
    }

    @Test("Sealed to a TPM2: unlock-keychain --sealed unseals and unlocks; another TPM cannot (exit 53), and the keychain stays locked")
    func roundTrip() throws {
        let sandbox = try CLISandbox()
        let tpm = try SoftwareTPM(sandbox)
        let path = try Self.lockedKeychain(sandbox)
        let sealed = try Self.seal(sandbox, tpm, path)
        #expect(sealed.status == 0, "\(sealed)")
        let info = try sandbox.run(["show-keychain-info", path])
        #expect(info.stdout.contains("seal:       tpm2 (tpm2; made "), "\(info)")
        try #require(try sandbox.run(["lock-keychain", path]).status == 0)
        let unlocked = try MachineUnlockSystemdTests.unlockAndRead(sandbox, path, "unlock-keychain --sealed", environment: tpm.environment)
        #expect(unlocked.status == 0, "\(unlocked)")
        #expect(unlocked.stdout == "inside\n")
        try #require(try sandbox.run(["lock-keychain", path]).status == 0)
        let otherTPM = try SoftwareTPM(sandbox, name: "other-tpm")
        let elsewhere = try MachineUnlockSystemdTests.unlockOnly(sandbox, path, "unlock-keychain --sealed", environment: otherTPM.environment)
        #expect(elsewhere.status == 53, "\(elsewhere)")
        #expect(elsewhere.stderr.contains("the TPM refused to load the seal 'tpm2'"), "\(elsewhere)")
        #expect(try MachineUnlockSystemdTests.isLocked(sandbox, path))
    }

    @Test("With --pcrs the seal opens only while the PCR holds its value: extended, it refuses (exit 53, still locked); reset, it opens")
    func pcrPolicy() throws {
        let sandbox = try CLISandbox()
        let tpm = try SoftwareTPM(sandbox)
        let path = try Self.lockedKeychain(sandbox)
        // PCR 16 is the debug PCR, which tpm2_pcrreset may reset; the others only reboot resets.
        let sealed = try Self.seal(sandbox, tpm, path, ["--name", "boot-state", "--pcrs", "sha256:16"])
        #expect(sealed.status == 0, "\(sealed)")
        #expect(try sandbox.run(["show-keychain-info", path]).stdout.contains("seal:       boot-state (tpm2, PCRs sha256:16; made "))
        try #require(try sandbox.run(["lock-keychain", path]).status == 0)
        let extend = try MachineUnlockTools.run("tpm2_pcrextend", ["16:sha256=" + String(repeating: "ab", count: 32)], environment: tpm.environment)
        try #require(extend.status == 0, "\(extend)")
        let refused = try MachineUnlockSystemdTests.unlockOnly(sandbox, path, "unlock-keychain --seal boot-state", environment: tpm.environment)
        #expect(refused.status == 53, "\(refused)")
        #expect(refused.stderr.contains("PCRs sha256:16 no longer hold the values they held when it was sealed"), "\(refused)")
        #expect(try MachineUnlockSystemdTests.isLocked(sandbox, path))
        let reset = try MachineUnlockTools.run("tpm2_pcrreset", ["16"], environment: tpm.environment)
        try #require(reset.status == 0, "\(reset)")
        let unlocked = try MachineUnlockSystemdTests.unlockAndRead(sandbox, path, "unlock-keychain --seal boot-state", environment: tpm.environment)
        #expect(unlocked.status == 0, "\(unlocked)")
        #expect(unlocked.stdout == "inside\n")
    }

    @Test("After a password change the TPM seal is stale (exit 51) before the TPM is even asked; a re-seal opens")
    func staleAfterPasswordChange() throws {
        let sandbox = try CLISandbox()
        let tpm = try SoftwareTPM(sandbox)
        let path = try Self.lockedKeychain(sandbox)
        try #require(try Self.seal(sandbox, tpm, path).status == 0)
        try #require(try sandbox.run(["set-keychain-password", "-o", "pw", "-p", "pw2", path]).status == 0)
        try #require(try sandbox.run(["lock-keychain", path]).status == 0)
        let stale = try MachineUnlockSystemdTests.unlockOnly(sandbox, path, "unlock-keychain --sealed", environment: tpm.environment)
        #expect(stale.status == 51, "\(stale)")
        #expect(stale.stderr.contains("The seal 'tpm2' is stale"), "\(stale)")
        let again = try sandbox.run(["seal-keychain", "--with", "tpm2", "--replace", "--password-fd", "-", path], stdin: "pw2\n",
                                    environment: tpm.environment)
        #expect(again.status == 0, "\(again)")
        let unlocked = try MachineUnlockSystemdTests.unlockAndRead(sandbox, path, "unlock-keychain --sealed", environment: tpm.environment)
        #expect(unlocked.status == 0 && unlocked.stdout == "inside\n", "\(unlocked)")
    }

    /// The first command in backticks of `text` that runs seal-keychain, as words (the hints
    /// quote only words that need it, and the sandbox's paths have no spaces).
    static func suggestedReseal(_ text: String) -> [String]? {
        let quoted = text.components(separatedBy: "`").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        return quoted.first { $0.contains(" seal-keychain ") }.map { $0.split(separator: " ").map(String.init) }
    }

    @Test("A re-seal hint keeps every choice of the seal: followed after a password change, a seal bound to a PCR is bound to it again")
    func resealHintKeepsThePCRs() throws {
        let sandbox = try CLISandbox()
        let tpm = try SoftwareTPM(sandbox)
        let path = try Self.lockedKeychain(sandbox)
        try #require(try Self.seal(sandbox, tpm, path, ["--pcrs", "sha256:16"]).status == 0)
        let change = try sandbox.run(["set-keychain-password", "-o", "pw", "-p", "pw2", path])
        #expect(change.status == 0, "\(change)")
        #expect(Self.suggestedReseal(change.stderr)?.contains("sha256:16") == true, "\(change)")
        try #require(try sandbox.run(["lock-keychain", path]).status == 0)
        let stale = try MachineUnlockSystemdTests.unlockOnly(sandbox, path, "unlock-keychain --sealed", environment: tpm.environment)
        #expect(stale.status == 51, "\(stale)")
        // The command the hint gives, run as given (the program's name left out), the new
        // password on standard input.
        let words = try #require(Self.suggestedReseal(stale.stderr), "no re-seal command in \(stale.stderr)")
        let again = try sandbox.run(Array(words.dropFirst()) + ["--password-fd", "-"], stdin: "pw2\n", environment: tpm.environment)
        #expect(again.status == 0, "\(again)")
        let info = try sandbox.run(["show-keychain-info", path])
        #expect(info.stdout.contains("PCRs sha256:16"), "the re-sealed seal lost its PCR binding: \(info)")
        #expect(!info.stdout.contains("stale"), "\(info)")
    }

    @Test("The unlock key crosses the TPM bus only encrypted: in the traced TPM2_Create command and TPM2_Unseal response it is nowhere",
          arguments: [[], ["--pcrs", "sha256:16"]])
    func busCarriesOnlyCiphertext(_ extra: [String]) throws {
        let sandbox = try CLISandbox()
        let tpm = try SoftwareTPM(sandbox)
        let path = try Self.lockedKeychain(sandbox)
        let capture = try TPM2KeyCapture(sandbox)

        let sealTrace = sandbox.path("seal-trace.log")
        let sealed = try sandbox.run(["seal-keychain", "--with", "tpm2", "--password-fd", "-"] + extra + [path], stdin: "pw\n",
                                     environment: capture.environment(tpm, traceFile: sealTrace))
        try #require(sealed.status == 0, "\(sealed)")
        let key = [UInt8](try Data(contentsOf: capture.sealedCopy))
        try #require(key.count >= 16, "tpm2_create read \(key.count) bytes")
        let sealing = try TPM2BusTrace(file: sealTrace)
        try #require(sealing.sentCommand(TPM2BusTrace.createCommand), "the trace holds no TPM2_Create (\(sealing.buffers.count) buffers)")
        #expect(sealing.firstBufferHolding(key) == nil, "the unlock key went to the TPM in the clear")

        try #require(try sandbox.run(["lock-keychain", path]).status == 0)
        let unsealTrace = sandbox.path("unseal-trace.log")
        let unlocked = try MachineUnlockSystemdTests.unlockAndRead(sandbox, path, "unlock-keychain --sealed",
                                                                    environment: capture.environment(tpm, traceFile: unsealTrace))
        #expect(unlocked.status == 0 && unlocked.stdout == "inside\n", "\(unlocked)")
        // What the TPM gave back is the key that went in: the trace below is of a real unseal.
        #expect([UInt8](try Data(contentsOf: capture.unsealedCopy)) == key)
        let unsealing = try TPM2BusTrace(file: unsealTrace)
        try #require(unsealing.sentCommand(TPM2BusTrace.unsealCommand), "the trace holds no TPM2_Unseal (\(unsealing.buffers.count) buffers)")
        #expect(unsealing.firstBufferHolding(key) == nil, "the unlock key came back from the TPM in the clear")
        // The session was flushed with everything else: nothing is left in the TPM's slots.
        for kind in ["handles-saved-session", "handles-loaded-session", "handles-transient"] {
            let left = try MachineUnlockTools.run("tpm2_getcap", [kind], environment: tpm.environment)
            #expect(left.status == 0 && left.stdout.isEmpty, "\(kind): \(left)")
        }
    }
}
