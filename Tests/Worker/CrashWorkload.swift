import Foundation
import KeychainServices
import KeychainStore
import KeychainTestSupport

/// The writer the crash-consistency proof kills: adds, updates, deletes and password changes on
/// one keychain, forever, announcing each call before it is made ("begin …") and each success
/// after it returned ("ack …"), one unbuffered line at a time, so that whatever point SIGKILL
/// strikes, the parent knows every call that had returned success and the one (at most) that was
/// under way.
///
/// Every item is a generic password "acct-N" of class dk (readable while locked), whose secret,
/// label and generic attribute all carry the same version tag, so an update half-applied — a new
/// secret with an old label — is visible to the parent.
enum CrashWorkload {
    /// crash-workload KEYCHAIN ROUND SEED CURRENT-PASSWORD OTHER-PASSWORD
    static func run(file: KeychainFile, arguments: [String]) -> Never {
        guard arguments.count >= 4, let round = Int(arguments[0]), let seed = UInt64(arguments[1]) else {
            say("usage: crash-workload KEYCHAIN ROUND SEED CURRENT OTHER")
            exit(64)
        }
        var (current, other) = (arguments[2], arguments[3])
        var present = existingAccounts()
        var random = SeededRandom(seed: seed)
        say("ready")
        var index = 0
        while true {
            let account = "acct-\(random.next() % 16)"
            let version = "r\(round)o\(index)"
            let roll = random.next() % 100
            let status: OSStatus
            if roll >= 96 {
                say("begin \(index) password \(other)")
                do {
                    try file.setPassword(other, currentPassword: current)
                    status = errSecSuccess
                    (current, other) = (other, current)
                } catch {
                    status = error.status
                }
            } else if present.contains(account) && roll >= 70 {
                say("begin \(index) delete \(account)")
                status = SecItemDelete(query(account))
                if status == errSecSuccess { present.remove(account) }
            } else if present.contains(account) {
                say("begin \(index) update \(account) \(version)")
                status = SecItemUpdate(query(account), changes(account, version) as CFDictionary)
            } else {
                say("begin \(index) add \(account) \(version)")
                var item = changes(account, version)
                item[kSecClass as String] = kSecClassGenericPassword
                item[kSecAttrAccount as String] = account
                item[kSecAttrService as String] = "crash.example"
                item[kSecAttrAccessible as String] = "dk"
                status = SecItemAdd(item as CFDictionary, nil)
                if status == errSecSuccess { present.insert(account) }
            }
            guard status == errSecSuccess else {
                say("fail \(index) \(status)")
                exit(3)
            }
            say("ack \(index)")
            index += 1
        }
    }

    static func query(_ account: String) -> CFDictionary {
        [kSecClass: kSecClassGenericPassword, kSecAttrAccount: account as NSString,
         kSecAttrService: "crash.example" as NSString] as NSDictionary
    }

    /// The three places a version is written, changed together by one call.
    static func changes(_ account: String, _ version: String) -> [String: Any] {
        [kSecValueData as String: Data("secret:\(account):\(version)".utf8),
         kSecAttrLabel as String: "label:\(account):\(version)",
         kSecAttrGeneric as String: Data("generic:\(account):\(version)".utf8)]
    }

    static func existingAccounts() -> Set<String> {
        var result: CFTypeRef?
        let status = SecItemCopyMatching([kSecClass: kSecClassGenericPassword, kSecAttrService: "crash.example" as NSString,
                                          kSecMatchLimit: kSecMatchLimitAll, kSecReturnAttributes: kCFBooleanTrue!] as NSDictionary,
                                         &result)
        guard status == errSecSuccess, let items = result as? [[String: Any]] else {
            if status != errSecItemNotFound { say("fail start \(status)"); exit(3) }
            return []
        }
        return Set(items.compactMap { $0[kSecAttrAccount as String] as? String })
    }
}
