import Foundation
import KeychainServices
import KeychainStore

/// `unlock-keychain --sealed`: gets the unlock key back from the machine and unlocks with it.
enum SealedUnlock {
    /// Unlocks `file` from the seal `name`, or from the first seal that works when `name` is nil.
    /// `credential` is a file holding the unsealed key (what systemd puts in
    /// `$CREDENTIALS_DIRECTORY`), tried against the seals instead of unsealing.
    static func unlock(_ file: KeychainFile, target: KeychainSession.Target, name: String?, credential: URL?,
                       scope: UnlockScope, context: String) throws(CommandFailure) {
        let seals = try KeychainAdministration.sealStatuses(file, context: context)
        let candidates = name.map { wanted in seals.filter { $0.record.name == wanted } } ?? seals
        guard !candidates.isEmpty else {
            if let name {
                throw CommandFailure.status(errSecItemNotFound, context,
                                            hint: "The keychain has no seal named '\(name)'; `\(Console.programName) show-keychain-info\(target.commandArgument)` lists its seals.")
            }
            throw CommandFailure.status(errSecItemNotFound, context,
                                        hint: "The keychain has no seal; make one with `\(Console.programName) seal-keychain --with systemd-creds|tpm2\(target.commandArgument)`.")
        }
        var failures: [CommandFailure] = []
        for seal in candidates {
            do throws(CommandFailure) {
                try unlock(file, seal: seal, credential: credential, target: target, scope: scope, context: context)
                return
            } catch {
                failures.append(error)
            }
        }
        // Several seals tried: each one's failure is worth seeing; the first decides the exit.
        if failures.count > 1 {
            for failure in failures.dropFirst() { Console.err(failure.line(program: Console.programName) + "\n") }
        }
        throw failures[0]
    }

    private static func unlock(_ file: KeychainFile, seal: KeychainFile.SealStatus, credential: URL?,
                               target: KeychainSession.Target, scope: UnlockScope, context: String) throws(CommandFailure) {
        let record = seal.record
        let reseal = SealMethod.resealCommand(record, target: target)
        if seal.isStale && credential == nil {
            throw CommandFailure.status(errSecAuthFailed, context,
                                        hint: "The seal '\(record.name)' is stale: the keychain's password changed after it was made. Unlock with the password, then seal again with \(reseal).")
        }
        let bytes: Data
        if let credential {
            bytes = try SystemdCredsSeal.readPlainCredential(credential, context: context)
        } else {
            switch SealMethod(rawValue: record.method) {
            case .systemdCreds: bytes = try SystemdCredsSeal.unseal(record, credentialFile: nil, context: context)
            case .tpm2: bytes = try TPM2Seal.unseal(record, target: target, context: context)
            case nil:
                throw CommandFailure.general(context, "the seal '\(record.name)' was made with '\(record.method)', which this version does not know.",
                                             hint: "Use the keychainctl that made it, or remove it with remove-seal.")
            }
        }
        do {
            try file.unlock(sealedKey: bytes, seal: record.name, scope: scope)
        } catch {
            let hint = error.status == errSecAuthFailed
                ? "Unlock with the password, then seal again with \(reseal)."
                : "The keychain is unchanged. Remove the seal (`\(Console.programName) remove-seal \(record.name)\(target.commandArgument)`) and seal again."
            throw CommandFailure.engine(error, context + " (seal '\(record.name)')", hint: hint)
        }
    }
}
