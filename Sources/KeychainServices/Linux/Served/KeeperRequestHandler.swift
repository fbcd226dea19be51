#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Foundation
package import KeychainAuthentication
package import KeychainStore

/// The keeper's side: runs one served process's SecItem call on the keeper's file, as the
/// identity the keeper gave the connection (never one the caller claims), and shapes the
/// answer. keychaind calls it for each message of its keeper socket.
package enum KeeperRequestHandler {
    /// The longest message a keeper reads (``KeeperCall/maximumMessageLength``).
    package static var maximumMessageLength: Int { KeeperCall.maximumMessageLength }

    /// An answer that runs nothing: a call refused with `status`.
    package static func refusal(status: OSStatus) -> [UInt8] { KeeperAnswer(status: status, result: .null).bytes }

    /// What a message asks for, as bytes of the answer; `closeAfter` when the connection must
    /// be closed (a message of another version or not a request at all: the stream may not be
    /// where the client thinks it is). An item that needs the user is asked for through
    /// `authenticator` (keychaind's pinentry, naming the caller); the default prompts no one,
    /// so such an item is `errSecInteractionNotAllowed`.
    package static func answer(_ message: [UInt8], file: KeychainFile, identity: ClientIdentity,
                               authenticator: any KeychainAuthenticator = NonInteractiveAuthenticator()) -> (bytes: [UInt8], closeAfter: Bool) {
        switch KeeperCall.read(message) {
        case .failure(.unknownVersion): return (KeeperAnswer.unknownVersion.bytes, true)
        case .failure(.malformed): return (KeeperAnswer.malformed.bytes, true)
        case .success(let call):
            let context = KeychainContext(file: file, identity: identity)
            // Never the keeper's own terminal: the authenticator given, or no one.
            let answer = KeychainAuthenticators.withAuthenticator(authenticator) {
                KeychainContext.withContext(context) { run(call) }
            }
            return (answer.bytes, false)
        }
    }

    private static func run(_ call: KeeperCall) -> KeeperAnswer {
        let object: AnyObject
        do throws(KeeperValueError) {
            object = try call.query.object()
        } catch {
            return KeeperAnswer(status: error.status, result: .null)
        }
        switch call.operation {
        case .unlockKeychain, .changeKeychainPassword, .adoptKeychain, .releaseKeychain, .forgetKeychain, .lockKeychain, .keychainStatus:
            // The keeper answers these itself (KeeperKeychainCall): it decides whose keychain.
            return KeeperAnswer(status: errSecParam, result: .null)
        case .add, .copyMatching, .update, .delete, .addAll:
            break
        }
        if call.operation == .addAll {
            guard let list = object as? [NSDictionary], !list.isEmpty, !call.wantsResult else { return KeeperAnswer(status: errSecParam, result: .null) }
            return KeeperAnswer(status: SecItemImplementation.addAll(list), result: .null)
        }
        guard let query = object as? NSDictionary else { return KeeperAnswer(status: errSecParam, result: .null) }
        var result: CFTypeRef?
        let status = withUnsafeMutablePointer(to: &result) { pointer -> OSStatus in
            let wanted = call.wantsResult ? pointer : nil
            switch call.operation {
            case .add: return SecItemImplementation.add(query, wanted)
            case .copyMatching: return SecItemImplementation.copyMatching(query, wanted)
            case .delete: return SecItemImplementation.delete(query)
            case .update:
                guard let changes = try? call.changes.object() as? NSDictionary else { return errSecParam }
                return SecItemImplementation.update(query, changes)
            case .addAll, .unlockKeychain, .changeKeychainPassword, .adoptKeychain, .releaseKeychain, .forgetKeychain, .lockKeychain, .keychainStatus:
                return errSecParam  // answered above
            }
        }
        guard let result else { return KeeperAnswer(status: status, result: .null) }
        do throws(KeeperValueError) {
            return KeeperAnswer(status: status, result: try KeeperValue(object: result))
        } catch {
            return KeeperAnswer(status: error.status, result: .null)
        }
    }
}
#endif
