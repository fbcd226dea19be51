// A SecItem program for the keeper's tests: the same calls an application makes, nothing
// configured in code, so whether it is embedded or served is only what its environment says
// (SWIFT_KEYCHAIN_KEEPER). Usage: keychain-served-client COMMAND ARGS…
//   add SERVICE ACCOUNT VALUE [GROUP]    find SERVICE ACCOUNT [GROUP]    delete SERVICE ACCOUNT
//   update SERVICE ACCOUNT VALUE         services                        wait-then-find SECONDS SERVICE ACCOUNT
//   bench COUNT SERVICE ACCOUNT          (Benchmarks/keeper.sh: the first lookup, then COUNT more, timed)
//   add-many SERVICE COUNT               adds accounts 0..<COUNT (value "value-N"), printing "ok N" as each is acknowledged
//   accounts SERVICE                     the accounts of SERVICE with their values, as "accounts N=VALUE,…"
//   find-without-ui SERVICE ACCOUNT      find with kSecUseAuthenticationUI fail: never asks the user
//   make-key TAG                         SecKeyCreateRandomKey of a permanent P-256 key pair tagged TAG
//   sign-with TAG                        finds TAG's private key (kSecReturnRef), signs and verifies: "signed"
// Prints one line ("ok", "found VALUE", "services A,B", "accounts …", "status N", or the bench's
// figures), or for add-many one line per acknowledged add and then the status that stopped it.
import Foundation
import Dispatch
import KeychainServices

func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

func query(_ service: String, _ account: String, group: String? = nil) -> [String: Any] {
    var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                kSecAttrService as String: service, kSecAttrAccount as String: account]
    if let group { query[kSecAttrAccessGroup as String] = group }
    return query
}

func find(_ service: String, _ account: String, group: String?) {
    var found = query(service, account, group: group)
    found[kSecReturnData as String] = true
    var result: CFTypeRef?
    let status = SecItemCopyMatching(found as CFDictionary, &result)
    if status == errSecSuccess, let data = result as? Data {
        say("found \(String(decoding: data, as: UTF8.self))")
    } else {
        say("status \(status)")
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch (arguments.first, arguments.count) {
case ("add", 4...5):
    var item = query(arguments[1], arguments[2], group: arguments.count == 5 ? arguments[4] : nil)
    item[kSecValueData as String] = Data(arguments[3].utf8)
    let status = SecItemAdd(item as CFDictionary, nil)
    say(status == errSecSuccess ? "ok" : "status \(status)")
case ("find", 3...4):
    find(arguments[1], arguments[2], group: arguments.count == 4 ? arguments[3] : nil)
case ("find-without-ui", 3):
    var found = query(arguments[1], arguments[2])
    found[kSecReturnData as String] = true
    found[kSecUseAuthenticationUI as String] = kSecUseAuthenticationUIFail
    var result: CFTypeRef?
    let status = SecItemCopyMatching(found as CFDictionary, &result)
    say(status == errSecSuccess ? "found" : "status \(status)")
case ("wait-then-find", 4):
    // Connects first (a lookup of nothing), then waits: for the tests of what the keeper does
    // with a connection whose process changed while it was open.
    _ = SecItemCopyMatching(query("-", "-") as CFDictionary, nil)
    Thread.sleep(forTimeInterval: Double(arguments[1]) ?? 1)
    find(arguments[2], arguments[3], group: nil)
case ("update", 4):
    let status = SecItemUpdate(query(arguments[1], arguments[2]) as CFDictionary,
                               [kSecValueData as String: Data(arguments[3].utf8)] as CFDictionary)
    say(status == errSecSuccess ? "ok" : "status \(status)")
case ("delete", 3):
    let status = SecItemDelete(query(arguments[1], arguments[2]) as CFDictionary)
    say(status == errSecSuccess ? "ok" : "status \(status)")
case ("services", 1):
    let all: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecMatchLimit as String: kSecMatchLimitAll,
                              kSecReturnAttributes as String: true]
    var result: CFTypeRef?
    let status = SecItemCopyMatching(all as CFDictionary, &result)
    if status == errSecSuccess, let items = result as? [[String: Any]] {
        let services = items.compactMap { $0[kSecAttrService as String] as? String }.sorted()
        say("services \(services.joined(separator: ","))")
    } else {
        say("status \(status)")
    }
case ("add-many", 3):
    // For the crash test: a line is written (unbuffered) only once SecItemAdd has returned
    // success, so every line printed is a write the keeper acknowledged.
    for index in 0..<(Int(arguments[2]) ?? 0) {
        var item = query(arguments[1], String(index))
        item[kSecValueData as String] = Data("value-\(index)".utf8)
        let status = SecItemAdd(item as CFDictionary, nil)
        guard status == errSecSuccess else { say("status \(status)"); exit(1) }
        say("ok \(index)")
    }
case ("accounts", 2):
    let all: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: arguments[1],
                              kSecMatchLimit as String: kSecMatchLimitAll, kSecReturnAttributes as String: true, kSecReturnData as String: true]
    var result: CFTypeRef?
    let status = SecItemCopyMatching(all as CFDictionary, &result)
    if status == errSecSuccess, let items = result as? [[String: Any]] {
        let accounts = items.compactMap { item -> String? in
            guard let account = item[kSecAttrAccount as String] as? String, let value = item[kSecValueData as String] as? Data else { return nil }
            return "\(account)=\(String(decoding: value, as: UTF8.self))"
        }
        say("accounts \(accounts.joined(separator: ","))")
    } else {
        say("status \(status)")
    }
case ("make-key", 2):
    var error: Unmanaged<CFError>?
    let made = SecKeyCreateRandomKey([kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits: 256,
                                      kSecAttrIsPermanent: true, kSecAttrApplicationTag: Data(arguments[1].utf8)] as CFDictionary, &error)
    say(made != nil ? "ok" : "status \(error.map { CFErrorGetCode($0.takeRetainedValue()) } ?? -1)")
case ("sign-with", 2):
    var result: CFTypeRef?
    let status = SecItemCopyMatching([kSecClass: kSecClassKey, kSecAttrKeyClass: kSecAttrKeyClassPrivate,
                                      kSecAttrApplicationTag: Data(arguments[1].utf8), kSecReturnRef: true] as CFDictionary, &result)
    guard status == errSecSuccess, let found = result, CFGetTypeID(found) == SecKeyGetTypeID() else { say("status \(status)"); exit(0) }
    let key = found as! SecKey
    let message = Data("served signature".utf8) as CFData
    guard let signature = SecKeyCreateSignature(key, .ecdsaSignatureMessageX962SHA256, message, nil),
          let publicKey = SecKeyCopyPublicKey(key) else { say("not signed"); exit(0) }
    say(SecKeyVerifySignature(publicKey, .ecdsaSignatureMessageX962SHA256, message, signature, nil) ? "signed" : "not verified")
case ("bench", 4):
    var lookup = query(arguments[2], arguments[3])
    lookup[kSecReturnData as String] = true
    let count = Int(arguments[1]) ?? 1000
    func timed(_ body: () -> Void) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1000
    }
    var result: CFTypeRef?
    var status = errSecSuccess
    // The first call of a served process also connects, and the keeper resolves who it is.
    let first = timed { status = SecItemCopyMatching(lookup as CFDictionary, &result) }
    guard status == errSecSuccess else { say("status \(status)"); exit(1) }
    let rest = timed { for _ in 0..<count { status = SecItemCopyMatching(lookup as CFDictionary, &result) } }
    say(String(format: "first-us %.1f per-call-us %.2f", first, rest / Double(count)))
default:
    FileHandle.standardError.write(Data("usage: keychain-served-client add|find|update|delete|services|wait-then-find|find-without-ui|add-many|accounts|make-key|sign-with|bench …\n".utf8))
    exit(64)
}
