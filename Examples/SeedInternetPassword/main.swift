// Seed 004 (a Korean article on Keychain Services): its internet-password flow — add, search,
// update, delete — as one program. The article's code lines are kept as written; the only change
// to them is `import KeychainServices` where an Apple program says `import Security`.
//
// The article shows fragments, not a whole program: `static let server` belongs to a type, and
// each step's `let query` / `let status` lives in its own function. The glue that makes the
// fragments a program is ours and marked "glue": the `InternetPasswordFlow` type that holds
// `server`, one function per step with the article's statements as its body, and the small
// command-line driver at the bottom. The article's aside about a generic-password "deviceToken"
// query (a dictionary that is never sent) is left out.
//
// Usage (against the default keychain, `SWIFT_KEYCHAIN_PATH` or the XDG location):
//   seed-internet-password add <username> <password>
//   seed-internet-password search
//   seed-internet-password update <username> <password>
//   seed-internet-password delete
//   seed-internet-password            (the whole flow: add, search, update, search, delete, search)

import KeychainServices
import Foundation

struct Credentials {
    var username: String
    var password: String
}

enum KeychainError: Error {
    case noPassword
    case unexpectedPasswordData
    case unhandledError(status: OSStatus)
}

// glue: the type the article's `static let server` belongs to.
enum InternetPasswordFlow {
    static let server = "www.example.com"

    // glue: the article's "Add 쿼리 만들기" and "Keychain item 추가(ADD)" fragments.
    static func add(credentials: Credentials) throws {
        // KEY 역할
        let account = credentials.username
        // VALUE 역할 - data 타입이어야 한다.
        let password = credentials.password.data(using: String.Encoding.utf8)!

        // add 쿼리
        let query: [String: Any] = [
            // item class 종류
            kSecClass as String: kSecClassInternetPassword,
            // 저장하고자 하는 정보
            kSecAttrAccount as String: account, // item의 계정 이름을 나타냄
            kSecAttrServer as String: server, // item의 서버를 나타냄
            // Data 인스턴스로 인코딩된 password
            kSecValueData as String: password // item의 데이터
        ]

        let status = SecItemAdd(query as CFDictionary, nil)
        guard status == errSecSuccess else {
            throw KeychainError.unhandledError(status: status)
        }
    }

    // glue: the article's "Search 쿼리 만들기" and "Keychain item 검색(SEARCH)" fragments.
    static func search() throws -> Credentials {
        let query: [String: Any] = [
            kSecClass as String: kSecClassInternetPassword,
            // 일종의 key의 역할 - server attribute가 매치되는 item을 찾게 됨
            kSecAttrServer as String: server,
            kSecMatchLimit as String: kSecMatchLimitOne, // result를 하나의 value로 한정짓는다.(원래 디폴트값임)
            // attribute와 data 둘 다 요청
            kSecReturnAttributes as String: true,
            kSecReturnData as String: true
        ]

        var item: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &item)
        guard status != errSecItemNotFound else {
            throw KeychainError.noPassword
        }
        guard status == errSecSuccess else {
            throw KeychainError.unhandledError(status: status)
        }

        // 검색 시 1개의 결과만 요청했으므로 단일 딕셔너리로 옴
        guard let existingItem = item as? [String: Any],
              let passwordData = existingItem[kSecValueData as String] as? Data,
              let password = String(data: passwordData, encoding: .utf8),
              let account = existingItem[kSecAttrAccount as String] as? String
        else {
            throw KeychainError.unexpectedPasswordData
        }
        let credentials = Credentials(username: account, password: password)
        return credentials // glue: hands the article's result to the driver
    }

    // glue: the article's update fragments (search query, update query, update call).
    static func update(newCredentials: Credentials) throws {
        // 업데이트 작업 수행 시에 암시적으로 검색을 먼저 해야 하기 때문에 검색할때와 같은 형식으로 쿼리 생성
        let query: [String: Any] = [
            kSecClass as String: kSecClassInternetPassword,
            kSecAttrServer as String: server
        ]

        // 업데이트할 내용에 대한 쿼리 생성
        let account = newCredentials.username
        let password = newCredentials.password.data(using: .utf8)!
        let attributes: [String: Any] = [
            kSecAttrAccount as String: account,
            kSecValueData as String: password
        ]

        let status = SecItemUpdate(query as CFDictionary, attributes as CFDictionary)
        guard status != errSecItemNotFound else {
            throw KeychainError.noPassword
        }
        guard status == errSecSuccess else {
            throw KeychainError.unhandledError(status: status)
        }
    }

    // glue: the article's delete fragments.
    static func delete() throws {
        // 삭제할 item을 검색하기 위한 쿼리
        let query: [String: Any] = [
            kSecClass as String: kSecClassInternetPassword,
            kSecAttrServer as String: server
        ]

        let status = SecItemDelete(query as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else {
            throw KeychainError.unhandledError(status: status)
        }
    }
}

// MARK: - glue: the command-line driver

/// Runs one step and reports it on one line; false when the step threw. The article suggests
/// `SecCopyErrorMessageString(status, nil)` for printing a status, so failures show it.
func runStep(_ name: String, _ body: () throws -> String) -> Bool {
    do {
        print("\(name): \(try body())")
        return true
    } catch KeychainError.unhandledError(let status) {
        let message = SecCopyErrorMessageString(status, nil) as String? ?? "?"
        print("\(name): unhandledError(status: \(status)) \(message)")
    } catch {
        print("\(name): \(error)")
    }
    return false
}

func add(_ username: String, _ password: String) -> Bool {
    runStep("add") {
        try InternetPasswordFlow.add(credentials: Credentials(username: username, password: password))
        return "ok"
    }
}

func search() -> Bool {
    runStep("search") {
        let credentials = try InternetPasswordFlow.search()
        return "username=\(credentials.username) password=\(credentials.password)"
    }
}

func update(_ username: String, _ password: String) -> Bool {
    runStep("update") {
        try InternetPasswordFlow.update(newCredentials: Credentials(username: username, password: password))
        return "ok"
    }
}

func delete() -> Bool {
    runStep("delete") {
        try InternetPasswordFlow.delete()
        return "ok"
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
let succeeded: Bool
switch arguments.first {
case "add" where arguments.count == 3: succeeded = add(arguments[1], arguments[2])
case "search" where arguments.count == 1: succeeded = search()
case "update" where arguments.count == 3: succeeded = update(arguments[1], arguments[2])
case "delete" where arguments.count == 1: succeeded = delete()
case nil:
    // The article's flow in order; the last search is expected to find nothing.
    var flow = add("alice", "first-password")
    flow = search() && flow
    flow = update("alice", "second-password") && flow
    flow = search() && flow
    flow = delete() && flow
    flow = !search() && flow
    succeeded = flow
default:
    print("usage: seed-internet-password [add <username> <password> | search | update <username> <password> | delete]")
    exit(2)
}
exit(succeeded ? 0 : 1)
