import Foundation
import KeychainServices
import KeychainStore

/// The process whose memory the secrets-in-memory proof scans. Driven line by line on standard
/// input, so the parent can look at its memory between steps:
///
/// 1. reads the keychain password (never on the command line, where /proc/PID/cmdline keeps it),
///    unlocks, reads ACCOUNT's secret through SecItemCopyMatching, drops it, prints "read N";
/// 2. on "lock", locks the keychain and prints "locked";
/// 3. on end of input, exits.
enum MemoryProbeWorkload {
    /// memory-probe KEYCHAIN ACCOUNT
    static func run(file: KeychainFile, arguments: [String]) -> Never {
        guard let account = arguments.first else {
            say("usage: memory-probe KEYCHAIN ACCOUNT")
            exit(64)
        }
        unlockFromInput(file)
        say("read \(readOnce(account))")
        while let line = rawLine() {
            if line == "lock" {
                file.lock()
                say("locked")
            }
        }
        exit(0)
    }

    /// Unlocks with the password on the first input line; the password's string is released on return.
    static func unlockFromInput(_ file: KeychainFile) {
        guard let password = rawLine() else { exit(65) }
        do {
            try file.unlock(password: password)
        } catch {
            say("unlock \(error.status)")
            exit(2)
        }
    }

    /// A line of standard input read with read(2), one byte at a time, into a buffer that is
    /// zeroed afterwards: stdio would keep the password in its own buffer for the life of the
    /// process, which would say nothing about the keychain.
    static func rawLine() -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(128)
        defer { for index in bytes.indices { bytes[index] = 0 } }
        var byte: UInt8 = 0
        while read(0, &byte, 1) == 1 {
            if byte == 0x0A { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }

    /// Reads the secret the way an app does and lets it go; returns its length.
    static func readOnce(_ account: String) -> Int {
        var result: CFTypeRef?
        let status = SecItemCopyMatching([kSecClass: kSecClassGenericPassword, kSecAttrAccount: account as NSString,
                                          kSecReturnData: kCFBooleanTrue!] as NSDictionary, &result)
        guard status == errSecSuccess, let data = result as? Data else { return Int(status) }
        return data.count
    }
}
