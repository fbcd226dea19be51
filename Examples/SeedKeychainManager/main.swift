// Seed 000 (a Japanese article on Keychain Services): its five code snippets, in the article's
// order, as one program. The article's text had every snippet flattened onto one line; this file
// puts the line breaks back and changes nothing else but `import Security`, which is
// `import KeychainServices` here (see docs/apple-code-on-linux.md for building the original
// `import Security` form unchanged). The snippets do not conflict (the class's `KeychainError` is
// nested in `KeychainManager`), so they share this one file.
//
// The usage examples run against the default keychain: `SWIFT_KEYCHAIN_PATH`, or
// `${XDG_DATA_HOME:-~/.local/share}/keychains/login.keychain-db`.

// MARK: - Snippet 1: saving (SecItemAdd)

import KeychainServices
import Foundation

enum KeychainError: Error {
    case duplicateItem
    case unknown(OSStatus)
    case dataConversionError
}

/// Keychainにデータを保存する関数
func savePassword(service: String, account: String, password: String) throws {
    // パスワードをData型に変換
    guard let passwordData = password.data(using: .utf8) else {
        throw KeychainError.dataConversionError
    }

    // Keychainに保存するためのクエリ辞書を作成
    let query: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword, // ジェネリックパスワードとして保存
        kSecAttrService as String: service, // サービス名(アプリのバンドルIDなど)
        kSecAttrAccount as String: account, // アカウント名(ユーザーIDなど)
        kSecValueData as String: passwordData, // 保存するデータ本体
        kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlocked // デバイスがロック解除されているときにアクセス可能
    ]

    // Keychainにアイテムを追加
    let status = SecItemAdd(query as CFDictionary, nil)

    // エラーハンドリング
    if status == errSecDuplicateItem {
        // 同じサービスとアカウントのアイテムが既に存在する場合
        print("Keychain: 既に同じアイテムが存在します。")
        throw KeychainError.duplicateItem
    } else if status != errSecSuccess {
        // その他のエラー
        print("Keychain: 保存中にエラーが発生しました。Status: \(status)")
        throw KeychainError.unknown(status)
    } else {
        print("Keychain: パスワードが正常に保存されました。")
    }
}

// 使用例
do {
    try savePassword(service: "com.yourcompany.yourapp", account: "user@example.com", password: "yourSecurePassword")
} catch let error as KeychainError {
    switch error {
    case .duplicateItem:
        print("Keychain: 保存しようとしたアイテムは既に存在します。")
    case .unknown(let status):
        print("Keychain: 不明なエラーが発生しました。ステータスコード: \(status)")
    case .dataConversionError:
        print("Keychain: データ変換に失敗しました。")
    }
} catch {
    print("Keychain: 予期せぬエラーが発生しました: \(error.localizedDescription)")
}

// MARK: - Snippet 2: reading (SecItemCopyMatching)

import KeychainServices
import Foundation

/// Keychainからデータを読み出す関数
func retrievePassword(service: String, account: String) throws -> String? {
    // Keychainからデータを検索するためのクエリ辞書を作成
    let query: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword,
        kSecAttrService as String: service,
        kSecAttrAccount as String: account,
        kSecReturnData as String: kCFBooleanTrue!, // データ本体を返すように指定
        kSecMatchLimit as String: kSecMatchLimitOne // 検索結果は1つに限定
    ]

    var item: CFTypeRef?
    let status = SecItemCopyMatching(query as CFDictionary, &item)

    if status == errSecItemNotFound {
        print("Keychain: 指定されたアイテムは見つかりませんでした。")
        return nil
    } else if status != errSecSuccess {
        print("Keychain: 読み出し中にエラーが発生しました。Status: \(status)")
        throw KeychainError.unknown(status)
    }

    // 取得したデータをData型にキャストし、Stringに変換
    guard let passwordData = item as? Data,
          let password = String(data: passwordData, encoding: .utf8) else {
        print("Keychain: 取得したデータの変換に失敗しました。")
        throw KeychainError.dataConversionError
    }

    print("Keychain: パスワードが正常に読み出されました。")
    return password
}

// 使用例
do {
    if let retrievedPassword = try retrievePassword(service: "com.yourcompany.yourapp", account: "user@example.com") {
        print("取得したパスワード: \(retrievedPassword)")
    } else {
        print("パスワードは見つかりませんでした。")
    }
} catch let error as KeychainError {
    switch error {
    case .unknown(let status):
        print("Keychain: 不明なエラーが発生しました。ステータスコード: \(status)")
    case .dataConversionError:
        print("Keychain: データ変換に失敗しました。")
    default:
        print("Keychain: 予期せぬエラー。")
    }
} catch {
    print("Keychain: 予期せぬエラーが発生しました: \(error.localizedDescription)")
}

// MARK: - Snippet 3: updating (SecItemUpdate)

import KeychainServices
import Foundation

/// Keychainのデータを更新する関数
func updatePassword(service: String, account: String, newPassword: String) throws {
    guard let newPasswordData = newPassword.data(using: .utf8) else {
        throw KeychainError.dataConversionError
    }

    // 更新対象を特定するためのクエリ辞書
    let query: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword,
        kSecAttrService as String: service,
        kSecAttrAccount as String: account
    ]

    // 更新する属性と値を格納する辞書
    let attributesToUpdate: [String: Any] = [
        kSecValueData as String: newPasswordData
    ]

    // Keychainアイテムを更新
    let status = SecItemUpdate(query as CFDictionary, attributesToUpdate as CFDictionary)

    if status == errSecItemNotFound {
        print("Keychain: 更新対象のアイテムが見つかりませんでした。")
        throw KeychainError.unknown(status) // または専用のエラー
    } else if status != errSecSuccess {
        print("Keychain: 更新中にエラーが発生しました。Status: \(status)")
        throw KeychainError.unknown(status)
    } else {
        print("Keychain: パスワードが正常に更新されました。")
    }
}

// 使用例
do {
    // まずは古いパスワードを保存(もし存在しなければ)
    try? savePassword(service: "com.yourcompany.yourapp", account: "user@example.com", password: "oldPassword")

    // パスワードを更新
    try updatePassword(service: "com.yourcompany.yourapp", account: "user@example.com", newPassword: "newSecurePassword")

    if let updatedPassword = try retrievePassword(service: "com.yourcompany.yourapp", account: "user@example.com") {
        print("更新後のパスワード: \(updatedPassword)")
    }
} catch let error as KeychainError {
    print("Keychain: 更新エラー: \(error)")
} catch {
    print("Keychain: 予期せぬエラーが発生しました: \(error.localizedDescription)")
}

// MARK: - Snippet 4: deleting (SecItemDelete)

import KeychainServices
import Foundation

/// Keychainのデータを削除する関数
func deletePassword(service: String, account: String) throws {
    // 削除対象を特定するためのクエリ辞書
    let query: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword,
        kSecAttrService as String: service,
        kSecAttrAccount as String: account
    ]

    // Keychainアイテムを削除
    let status = SecItemDelete(query as CFDictionary)

    if status == errSecItemNotFound {
        print("Keychain: 削除対象のアイテムが見つかりませんでした。")
        // 見つからなくてもエラーにしない場合もある(冪等性を保つため)
    } else if status != errSecSuccess {
        print("Keychain: 削除中にエラーが発生しました。Status: \(status)")
        throw KeychainError.unknown(status)
    } else {
        print("Keychain: パスワードが正常に削除されました。")
    }
}

// 使用例
do {
    // パスワードを削除
    try deletePassword(service: "com.yourcompany.yourapp", account: "user@example.com")

    if let deletedPassword = try retrievePassword(service: "com.yourcompany.yourapp", account: "user@example.com") {
        print("削除後のパスワード: \(deletedPassword)")
    } else {
        print("パスワードは削除されました。") // 読み出せないことを確認
    }
} catch let error as KeychainError {
    print("Keychain: 削除エラー: \(error)")
} catch {
    print("Keychain: 予期せぬエラーが発生しました: \(error.localizedDescription)")
}

// MARK: - Snippet 5: the KeychainManager class

import KeychainServices
import Foundation

class KeychainManager {

    enum KeychainError: Error {
        case duplicateItem
        case itemNotFound
        case dataConversionError
        case unknown(OSStatus)

        var localizedDescription: String {
            switch self {
            case .duplicateItem:
                return "Keychain: 同じアイテムが既に存在します。"
            case .itemNotFound:
                return "Keychain: 指定されたアイテムは見つかりませんでした。"
            case .dataConversionError:
                return "Keychain: データ変換に失敗しました。"
            case .unknown(let status):
                return "Keychain: 不明なエラーが発生しました。ステータスコード: \(status)"
            }
        }
    }

    private let serviceIdentifier: String // アプリケーション固有のサービス識別子

    init(service: String) {
        self.serviceIdentifier = service
    }

    /// Keychainにデータを保存または更新する
    func saveOrUpdate(account: String, value: String) throws {
        guard let valueData = value.data(using: .utf8) else {
            throw KeychainError.dataConversionError
        }

        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: serviceIdentifier,
            kSecAttrAccount as String: account
        ]

        let attributesToUpdate: [String: Any] = [
            kSecValueData as String: valueData,
            kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlocked
        ]

        // 既存のアイテムを更新
        let status = SecItemUpdate(query as CFDictionary, attributesToUpdate as CFDictionary)

        if status == errSecItemNotFound {
            // アイテムが存在しない場合は新規追加
            let addQuery = query.merging(attributesToUpdate) { (_, new) in new } // 既存クエリと更新属性を結合
            let addStatus = SecItemAdd(addQuery as CFDictionary, nil)
            if addStatus != errSecSuccess {
                throw KeychainError.unknown(addStatus)
            }
        } else if status != errSecSuccess {
            // その他の更新エラー
            throw KeychainError.unknown(status)
        }
    }

    /// Keychainからデータを読み出す
    func retrieve(account: String) throws -> String? {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: serviceIdentifier,
            kSecAttrAccount as String: account,
            kSecReturnData as String: kCFBooleanTrue!,
            kSecMatchLimit as String: kSecMatchLimitOne
        ]

        var item: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &item)

        if status == errSecItemNotFound {
            return nil
        } else if status != errSecSuccess {
            throw KeychainError.unknown(status)
        }

        guard let valueData = item as? Data,
              let value = String(data: valueData, encoding: .utf8) else {
            throw KeychainError.dataConversionError
        }
        return value
    }

    /// Keychainからデータを削除する
    func delete(account: String) throws {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: serviceIdentifier,
            kSecAttrAccount as String: account
        ]

        let status = SecItemDelete(query as CFDictionary)

        if status == errSecItemNotFound {
            // 削除対象が見つからなくてもエラーとしない(冪等性を考慮)
            print("Keychain: 削除対象のアイテムは見つかりませんでした。")
        } else if status != errSecSuccess {
            throw KeychainError.unknown(status)
        }
    }
}

// 使用例
let keychain = KeychainManager(service: "com.yourcompany.yourapp")
let userAccount = "user@example.com"

do {
    // データの保存または更新
    try keychain.saveOrUpdate(account: userAccount, value: "initialPassword123")
    print("初回パスワード保存/更新成功")

    // データの読み出し
    if let password = try keychain.retrieve(account: userAccount) {
        print("読み出しパスワード: \(password)")
    }

    // データの更新
    try keychain.saveOrUpdate(account: userAccount, value: "newSecurePassword456")
    print("パスワード更新成功")
    if let updatedPassword = try keychain.retrieve(account: userAccount) {
        print("更新後パスワード: \(updatedPassword)")
    }

    // データの削除
    try keychain.delete(account: userAccount)
    print("パスワード削除成功")

    // 削除後の読み出し(nilが返るはず)
    if let _ = try keychain.retrieve(account: userAccount) {
        print("エラー: 削除したはずのパスワードが読み出されました。")
    } else {
        print("削除後のパスワードは見つかりませんでした。")
    }
} catch let error as KeychainManager.KeychainError {
    print("Keychainエラー: \(error.localizedDescription)")
} catch {
    print("予期せぬエラー: \(error.localizedDescription)")
}
