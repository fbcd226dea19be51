import Foundation
import KeychainServices
import KeychainStore

/// The engine's seal calls (KeychainFile+Seals.swift), with its errors turned into failures.
extension KeychainAdministration {
    static func sealStatuses(_ file: KeychainFile, context: String) throws(CommandFailure) -> [KeychainFile.SealStatus] {
        do {
            return try file.seals()
        } catch {
            throw .engine(error, context, hint: "Remove the damaged seal with `\(Console.programName) remove-seal NAME` (show-keychain-info names it) and seal again.")
        }
    }

    static func unlockKeyForSealing(_ file: KeychainFile, password: [UInt8], context: String) throws(CommandFailure) -> (key: SealedUnlockKey, passwordParameters: Data) {
        guard let text = String(validating: password, as: UTF8.self) else {
            throw .general(context, "the password is not valid UTF-8 text.", hint: nil)
        }
        do {
            return try file.unlockKeyForSealing(password: text)
        } catch {
            throw .engine(error, context)
        }
    }

    static func addSeal(_ file: KeychainFile, _ record: SealRecord, replacing: Bool, context: String) throws(CommandFailure) {
        do {
            try file.addSeal(record, replacing: replacing)
        } catch {
            throw .engine(error, context)
        }
    }
}
