import Foundation
import KeychainServices

/// One kind of operation repeated, for instruction counts under callgrind (a wall clock on a
/// shared machine is noise): `keychain-bench keys-profile --dir DIR --what create|add --count N`.
/// Run it as
///     valgrind --tool=callgrind --toggle-collect='*KeyCreateProfile*measured*' \
///         .build/release/keychain-bench keys-profile --dir /dev/shm/kp --what create --count 200
/// and divide the instructions collected by N: setup (opening the keychain) is not counted.
enum KeyCreateProfile {
    static func run(directory: String, what: String, count: Int) throws {
        let system = try SecItemSystem(path: directory + "/profile-\(what).keychain-db", deviceKeyPath: directory + "/device-key")
        _ = system
        // One of each first, so that lazily made state (statements, caches) is not counted.
        try measured(what: what, from: -1, to: 0)
        try measured(what: what, from: 0, to: count)
    }

    @inline(never)
    static func measured(what: String, from: Int, to: Int) throws {
        for index in from..<to {
            switch what {
            case "create":
                let parameters = [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256,
                                  kSecAttrIsPermanent as String: true,
                                  kSecAttrApplicationTag as String: Data("profile.\(index)".utf8)] as CFDictionary
                guard SecKeyCreateRandomKey(parameters, nil) != nil else { throw BenchFailure("SecKeyCreateRandomKey failed") }
            case "transient":
                let parameters = [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256] as CFDictionary
                guard SecKeyCreateRandomKey(parameters, nil) != nil else { throw BenchFailure("SecKeyCreateRandomKey failed") }
            case "add":
                let status = SecItemAdd([kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "profile.add",
                                         kSecAttrAccount as String: "\(index)", kSecValueData as String: Data(repeating: 1, count: 32)] as CFDictionary, nil)
                guard status == errSecSuccess else { throw BenchFailure("SecItemAdd failed: \(status)") }
            default:
                throw BenchFailure("--what is create, transient or add")
            }
        }
    }
}
