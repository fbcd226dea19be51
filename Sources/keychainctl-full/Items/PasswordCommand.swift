import Foundation
import KeychainServices
import KeychainStore
import KeychainctlCommandLine
import KeychainctlPasswords

/// keychainctl-full's run of a per-credential command, read by ``PasswordRequest`` or by the
/// swift-argument-parser commands (``FindPassword``, ``AddPassword``, ``DeletePassword``):
/// the one executor (``PasswordExecutor``, which the front runs too) with the hooks only this
/// program has, and its failures in `security`'s words.
///
/// The hooks: keychains named on the command line, and the default one created on first use
/// (``KeychainSession``); an item's authentication asked for as a SecItem call asks for it; a
/// password read from the terminal or standard input (``PasswordArgument``); `--json`
/// (``ItemJSON``) and real numbers printed from the values SecItem would have returned; output
/// written at once, so that a delete that fails has printed the item, as `security` does.
enum PasswordCommand {
    static func run(_ request: PasswordRequest) throws(CommandFailure) {
        if let socket = try KeychainSession.servedSocket() {
            try ServedPasswordCommand.run(request, socket: socket)
            return
        }
        let targets = KeychainSession.targets(request.keychains)
        // The keychain as an add's messages name it.
        let keychainName = targets[0].named ? targets[0].url.path : "<default>"
        // The keychain password typed once serves every call of the command (-U's search and
        // its update of a protected item).
        let shared = EngineItemResults.SharedAuthentication()
        let executor = PasswordExecutor(
            keychainCount: targets.count,
            open: { index in try KeychainSession.openForItems(targets[index], accessGroup: request.accessGroup) },
            keychainPath: { index in targets[index].url.path },
            authorizer: { file, index, authentication in
                let prompt = ItemAuthenticationText.prompt(request, keychainPath: targets[index].url.path)
                return EngineItemResults.authorizer(for: file, operationPrompt: prompt, skip: authentication == .skip, shared: shared)
            },
            password: { password in
                switch password {
                case .given(let text): return Array(text.utf8)
                case .prompt:
                    return try PasswordInput.read(prompt: "password data for new item: ", confirmPrompt: "retype password for new item: ",
                                                  context: "SecKeychainItemCreateFromContent (\(keychainName))")
                }
            },
            realNumberBytes: { number in
                // As the NSNumber SecItem returns for it prints (ItemPrinter).
                SecurityFormat.bigEndianBytes(UInt32(truncatingIfNeeded: NSNumber(value: number).int64Value))
            },
            json: { item, index, secret in
                Array(ItemJSON.text(ItemJSON.object(EngineItemResults.attributes(item), kind: request.item,
                                                    keychain: targets[index].url, secret: secret)).utf8)
            },
            write: { stream, bytes in Console.write(stream == .output ? STDOUT_FILENO : STDERR_FILENO, bytes) },
            skipped: { count, index in
                Console.err(ItemAuthenticationText.skippedNote(count, keychainPath: targets[index].url.path,
                                                               why: request.action == .delete ? skippedByDelete : skippedBySearch))
            })
        do {
            try executor.run(request)
        } catch let failure as CommandFailure {
            throw failure
        } catch let failure as PasswordFailure {
            throw Self.failure(failure, request: request, targets: targets, keychainName: keychainName)
        } catch {
            throw .status(errSecInternal, request.commandName)
        }
    }

    /// `failure` as `security` reports it: the keychain call in its words, the status's
    /// message, and the hint that names the keychain.
    static func failure(_ failure: PasswordFailure, request: PasswordRequest, targets: [KeychainSession.Target],
                        keychainName: String) -> CommandFailure {
        switch failure {
        case .badCode(let option, let value):
            // security's error for a code of the wrong length, with its suggestion for a
            // three-letter code ("ftp" should be "ftp ").
            let hint = value.utf8.count == 3 ? "Try \"\(value) \" instead of \"\(value)\"." : "Give exactly four ASCII characters, e.g. \"htps\"."
            return .general("\(option) \(value)", "four-character codes must be exactly 4 characters long.", hint: hint)
        case .notFound:
            return .status(errSecItemNotFound, searchContext, keychain: targets.count == 1 ? targets[0] : nil)
        case .unserved:
            return .status(errSecInternal, request.commandName)
        case .engine(let error, let step, let index):
            switch step {
            case .search:
                let failure = CommandFailure.status(error.status, searchContext)
                if case .add = request.action { return failure.about(targets[index]) }
                // Only an item whose access control asks for authentication refuses a read
                // with errSecAuthFailed: the password typed for it was wrong.
                return failure.replacingHint(for: errSecAuthFailed, with: itemAuthenticationHint).about(targets[index])
            case .authentication:
                // Only items that need authentication matched, and the one asked for was not
                // opened: no one to ask (errSecInteractionNotAllowed), a wrong password, a cancel.
                let failure = CommandFailure.status(error.status, searchContext)
                    .replacingHint(for: errSecAuthFailed, with: itemAuthenticationHint)
                    .replacingHint(for: errSecInteractionNotAllowed, with: noOneToAskHint)
                return failure.about(targets[index])
            case .update:
                return CommandFailure.status(error.status, "SecKeychainItemModifyContent").about(targets[index])
            case .add:
                let context = request.item == .generic
                    ? "SecKeychainItemCreateFromContent (\(keychainName))"
                    : "SecKeychainAddInternetPassword \(keychainName)"
                return CommandFailure.status(error.status, context).about(targets[index])
            case .delete:
                return .status(error.status, "SecKeychainItemDelete")
            }
        }
    }

    static let searchContext = "SecKeychainSearchCopyNext"
    static let itemAuthenticationHint = "The item asks for authentication before it is read, and the keychain password given was not accepted; try again."
    static let noOneToAskHint = "The only matching items ask for authentication (their access control needs the keychain password), and there is no terminal to ask on; run the command at a terminal."
    static let skippedBySearch = "the item shown is the first match that needs none."
    static let skippedByDelete = "the item deleted is the first match that needs none."
}
