public import Foundation
import KeychainServices

// What each failure means for someone using the wrapper, and what to do about it. Only the codes a
// keychain item call can return get a summary and advice of their own; the rest fall back to the
// message of SecCopyErrorMessageString and the general advice. The advice texts live in
// scripts/status-codes.tsv with the rest of each code's texts. Nothing here ever includes a value
// read or written.

extension KeychainError: CustomStringConvertible, LocalizedError {
    /// One paragraph: what failed, the status by name and number, what it means, what to do.
    ///
    /// For example: "Reading the keychain failed with errSecInteractionNotAllowed (-25308): the
    /// item cannot be used now … What to do: …".
    public var description: String {
        let code = name.map { "\($0) (\(status))" } ?? "status \(status)"
        let lead = operation.map { "\($0.phrase) failed with \(code)" } ?? "Keychain error \(code)"
        return "\(lead): \(summary). What to do: \(advice)"
    }

    /// The same text as ``description``.
    public var errorDescription: String? { description }

    /// What happened, in one clause.
    public var failureReason: String? { summary }

    /// What happened, in one clause (no status, no advice).
    public var summary: String {
        switch status {
        case KeychainError.itemNotFound.status:
            return "no item matched (the key is not stored for this service or server, access group and synchronizable setting)"
        case KeychainError.duplicateItem.status:
            return "an item with the same key already exists for this service or server, access group and synchronizable setting"
        case KeychainError.interactionNotAllowed.status:
            return "the item cannot be used now: the keychain is locked (or has not been unlocked since it was opened), "
                + "or reading it needs authentication and a prompt was not allowed. The item may well exist"
        case KeychainError.missingEntitlement.status:
            if let accessGroup {
                return "this process does not hold the access group \"\(accessGroup)\" that the call named"
            }
            return "this process holds no access group the call could use"
        case KeychainError.authFailed.status:
            return "authentication failed: the password was wrong, or the authentication context can no longer be used"
        case KeychainError.userCanceled.status:
            return "the user cancelled the authentication prompt; nothing was changed"
        case KeychainError.param.status:
            return "the keychain rejected the request: an attribute was missing, had the wrong type, or is not allowed here "
                + "(for example access control together with synchronizable)"
        case KeychainError.notAvailable.status:
            return "the keychain, or the key of the item's protection class, is not available "
                + "(for example a passcode-only item in a keychain without a password)"
        case KeychainError.unimplemented.status:
            return "the keychain does not support what was asked (for example an access-control requirement this platform cannot enforce yet)"
        case KeychainError.decode.status:
            return "the stored item could not be decrypted or decoded: it is damaged, or it was written under another device key"
        case KeychainError.diskFull.status, KeychainError.io.status, KeychainError.wrPerm.status,
             KeychainError.readOnly.status, KeychainError.internalComponent.status:
            return "the keychain's storage could not be read or written"
        case KeychainError.noSuchKeychain.status, KeychainError.invalidKeychain.status, KeychainError.noDefaultKeychain.status:
            return "the keychain file is missing or is not a keychain"
        case KeychainError.upgradePending.status:
            return "the keychain must be upgraded, which can only happen once it is unlocked"
        case KeychainError.noSuchAttr.status, KeychainError.noSuchClass.status:
            return "the keychain does not know an attribute or item class in the request"
        default:
            // Apple's message when the platform has one; this package's Linux table covers the
            // keychain codes and says "unknown error" for the rest.
            if let text = SecCopyErrorMessageString(status, nil) as String?, !text.lowercased().hasPrefix("unknown error") {
                return Self.clause(text)
            }
            if name != nil, status <= -67585 {
                return "a failure reported by the cryptographic services (certificates, keys, trust), not by a keychain item call"
            }
            return "the keychain returned a status this library has no description for"
        }
    }

    /// What to do about it.
    public var recoverySuggestion: String? { advice }

    /// What to do about it, in one sentence: the status's own advice (generated from
    /// scripts/status-codes.tsv into KeychainError+Advice.swift), else the general advice.
    var advice: String {
        guard let text = Self.adviceTexts[status] else {
            return "this status is not one keychain item calls usually return; look it up by name in Apple's Security documentation."
        }
        return text.replacingOccurrences(of: "{group}", with: accessGroup.map { "\"\($0)\"" } ?? "the group")
    }

    /// Lower-cases the first letter and drops the final period, so a sentence reads as a clause.
    private static func clause(_ sentence: String) -> String {
        var text = sentence.trimmingCharacters(in: .whitespacesAndNewlines)
        while text.hasSuffix(".") { text.removeLast() }
        guard let first = text.first else { return text }
        let second = text.dropFirst().first
        // Keep acronyms ("PKCS", "CRL") as they are.
        if let second, second.isUppercase { return text }
        return first.lowercased() + text.dropFirst()
    }
}

extension KeychainError.Operation {
    /// The operation as the subject of a sentence.
    var phrase: String {
        switch self {
        case .add: "Adding the item"
        case .read: "Reading the keychain"
        case .update: "Updating the item"
        case .delete: "Deleting from the keychain"
        case .createAccessControl: "Creating the access control"
        }
    }
}
