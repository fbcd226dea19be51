// Seed 001 (OWASP MASTG, Japanese edition: "Keychain Services"): its Swift snippet, which stores a
// password only the device owner can read back, as a program. The snippet's two halves declare
// `query` and `status` twice, so each half is the body of a function here: `saveSnippet()` holds
// steps 1-3 and `readSnippet()` steps 5-6, unchanged but for `import Security`, which is
// `import KeychainServices` here. Lines marked HARNESS are ours: they hand the snippets' local
// results to the code that prints them, and do nothing else.
//
// Usage: seed-access-control save | read | save-as-read-account
//   save                  steps 1-3 as written (account "OWASP Account")
//   read                  steps 5-6 as written (account "My Name": the article reads another
//                         account than it saved, so on its own this finds nothing)
//   save-as-read-account  HARNESS: the same item as `save`, under the account `read` asks for,
//                         so that the read path can be shown asking for authentication
// It prints the step's status and exits 0 when the step succeeded, 1 when it did not (a script
// running the seed must see a failed step without parsing the output), 2 for bad usage.
//
// On Linux the device passcode is the keychain password and the prompt is the terminal
// authenticator (or SWIFT_KEYCHAIN_AUTHENTICATOR=none). The snippet asks for biometry
// (biometryCurrentSet), which a Linux machine has only when simulated:
// SWIFT_KEYCHAIN_SIMULATED_BIOMETRY=1 makes the keychain password stand for it.

import KeychainServices
import Foundation

nonisolated(unsafe) var lastStatus: OSStatus?   // HARNESS (one thread)
nonisolated(unsafe) var lastResult: AnyObject?  // HARNESS

func saveSnippet() {
// 1. 認証設定を表す AccessControl オブジェクトを作成する

var error: Unmanaged<CFError>?

guard let accessControl = SecAccessControlCreateWithFlags(kCFAllocatorDefault,
                                                          kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
                                                          SecAccessControlCreateFlags.biometryCurrentSet,
                                                          &error) else {
    // failed to create AccessControl object

    return
}

// 2. キーチェーンサービスクエリを定義する。kSecAttrAccessControl は kSecAttrAccessible 属性と相互排他的であることに注意する

var query: [String: Any] = [:]

query[kSecClass as String] = kSecClassGenericPassword
query[kSecAttrLabel as String] = "com.me.myapp.password" as CFString
query[kSecAttrAccount as String] = "OWASP Account" as CFString
query[kSecValueData as String] = "test_strong_password".data(using: .utf8)! as CFData
query[kSecAttrAccessControl as String] = accessControl

// 3. アイテムを保存する

let status = SecItemAdd(query as CFDictionary, nil)

if status == noErr {
    // successfully saved
} else {
    // error while saving
}
lastStatus = status                // HARNESS
}

func readSnippet() {
// 5. クエリを定義する
var query = [String: Any]()
query[kSecClass as String] = kSecClassGenericPassword
query[kSecReturnData as String] = kCFBooleanTrue
query[kSecAttrAccount as String] = "My Name" as CFString
query[kSecAttrLabel as String] = "com.me.myapp.password" as CFString
query[kSecUseOperationPrompt as String] = "Please, pass authorisation to enter this area" as CFString

// 6. アイテムを取得する
var queryResult: AnyObject?
let status = withUnsafeMutablePointer(to: &queryResult) {
    SecItemCopyMatching(query as CFDictionary, UnsafeMutablePointer($0))
}

if status == noErr {
    let password = String(data: queryResult as! Data, encoding: .utf8)!
    _ = password                   // HARNESS: the article reads it and stops there; lastResult carries it out
    // パスワードの取得に成功
} else {
    // 認証がパスしなかった
}
lastStatus = status                // HARNESS
lastResult = queryResult           // HARNESS
}

// HARNESS: everything below.

/// The item `saveSnippet()` stores, under the account `readSnippet()` asks for.
func saveAsReadAccount() {
    var error: Unmanaged<CFError>?
    guard let accessControl = SecAccessControlCreateWithFlags(kCFAllocatorDefault, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
                                                              .biometryCurrentSet, &error) else {
        lastStatus = -50
        return
    }
    let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                kSecAttrLabel as String: "com.me.myapp.password",
                                kSecAttrAccount as String: "My Name",
                                kSecValueData as String: Data("test_strong_password".utf8),
                                kSecAttrAccessControl as String: accessControl]
    lastStatus = SecItemAdd(query as CFDictionary, nil)
}

switch CommandLine.arguments.dropFirst().first {
case "save":
    saveSnippet()
    print("save: status=\(lastStatus.map(String.init) ?? "none")")
case "save-as-read-account":
    saveAsReadAccount()
    print("save-as-read-account: status=\(lastStatus.map(String.init) ?? "none")")
case "read":
    readSnippet()
    // The secret is the article's sample, not a real one; the program says only whether it came back.
    let matches = (lastResult as? Data) == Data("test_strong_password".utf8)
    print("read: status=\(lastStatus.map(String.init) ?? "none") data=\(matches ? "matches" : "none")")
default:
    FileHandle.standardError.write(Data("usage: seed-access-control save | read | save-as-read-account\n".utf8))
    exit(2)
}
exit(lastStatus == errSecSuccess ? 0 : 1)
