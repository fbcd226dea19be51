import Foundation
import KeychainServices
import KeychainStore
#if canImport(Glibc)
import Glibc
#endif

/// The writer of the disk-full proof: adds large items until the file system (or a file-size
/// limit) refuses a write, then checks that the keychain still answers. Prints "ack N" after each
/// add that returned success, "full N STATUS" for the add that failed, then "read STATUS" (reading
/// the first item back), "update STATUS" and "delete STATUS" (which may also need space), and
/// "done".
enum DiskFullWorkload {
    /// fill KEYCHAIN LIMIT-BYTES|none SECRET-KIB
    static func run(arguments: [String]) -> Never {
        guard arguments.count >= 2, let kibibytes = Int(arguments[1]) else {
            say("usage: fill KEYCHAIN LIMIT-BYTES|none SECRET-KIB")
            exit(64)
        }
        if let limit = UInt64(arguments[0]) {
            // Past the limit write(2) fails with EFBIG instead of the kernel killing the process.
            signal(SIGXFSZ, SIG_IGN)
            var bounds = rlimit(rlim_cur: rlim_t(limit), rlim_max: rlim_t(limit))
            guard setrlimit(Int32(RLIMIT_FSIZE.rawValue), &bounds) == 0 else {
                say("setrlimit failed \(errno)")
                exit(2)
            }
        }
        var index = 0
        while true {
            let status = SecItemAdd(item(index, kibibytes: kibibytes) as CFDictionary, nil)
            guard status == errSecSuccess else {
                say("full \(index) \(status)")
                break
            }
            say("ack \(index)")
            index += 1
            if index > 100_000 {
                say("never full")
                exit(3)
            }
        }
        var result: CFTypeRef?
        let read = SecItemCopyMatching([kSecClass: kSecClassGenericPassword, kSecAttrAccount: "fill-0" as NSString,
                                        kSecReturnData: kCFBooleanTrue!] as NSDictionary, &result)
        let intact = (result as? Data) == secret(0, kibibytes: kibibytes)
        say("read \(read) \(intact ? "intact" : "different")")
        let update = SecItemUpdate([kSecClass: kSecClassGenericPassword, kSecAttrAccount: "fill-0" as NSString] as NSDictionary,
                                   [kSecAttrLabel: "relabelled" as NSString] as NSDictionary)
        say("update \(update)")
        let delete = SecItemDelete([kSecClass: kSecClassGenericPassword, kSecAttrAccount: "fill-1" as NSString] as NSDictionary)
        say("delete \(delete)")
        say("done")
        exit(0)
    }

    static func item(_ index: Int, kibibytes: Int) -> [String: Any] {
        [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "fill-\(index)",
         kSecAttrService as String: "disk-full.example", kSecAttrAccessible as String: "dk",
         kSecValueData as String: secret(index, kibibytes: kibibytes)]
    }

    /// A secret the parent can recompute: `index` repeated through a pseudo-random pattern.
    static func secret(_ index: Int, kibibytes: Int) -> Data {
        var state = UInt64(index) &* 0x9E37_79B9_7F4A_7C15 | 1
        return Data((0..<kibibytes * 1024).map { _ in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return UInt8(truncatingIfNeeded: state)
        })
    }
}
