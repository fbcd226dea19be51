import CKeychainSystem
import KeychainStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// keychain-pam-helper: the part of pam_keychain.so (docs/pam.md) that touches the keychain. The
// module runs it as the user logging in, with a clean environment, and writes the passwords on
// its standard input; it prints one line on standard error, which the module logs, and exits
// with a status the module understands (HelperExit). It is not meant to be run by hand, but
// nothing breaks if it is:
//
//   keychain-pam-helper unlock [--create] [--all-sessions]     password\0 on standard input
//   keychain-pam-helper change-password       old\0new\0 on standard input

// It holds passwords and, after an unlock, class keys: no core dump, no debugger of the user's.
_ = cks_disable_core_dumps()

func report(_ line: String) {
    let text = "keychain-pam-helper: \(line)\n"
    _ = text.utf8CString.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
}

func run(_ arguments: [String]) throws(HelperExit) -> String {
    let keychain = LoginKeychain()
    switch arguments {
    case let arguments where arguments.first == "unlock" && Set(arguments.dropFirst()).count == arguments.count - 1
        && arguments.dropFirst().allSatisfy({ ["--create", "--all-sessions"].contains($0) }):
        var passwords = try SecretInput.readPasswords(count: 1)
        defer { SecretBuffer.wipe(&passwords[0]) }
        return try keychain.unlock(password: passwords[0], create: arguments.contains("--create"),
                                   scope: arguments.contains("--all-sessions") ? .allSessions : .thisSession)
    case ["change-password"]:
        var passwords = try SecretInput.readPasswords(count: 2)
        defer { for index in passwords.indices { SecretBuffer.wipe(&passwords[index]) } }
        return try keychain.changePassword(old: passwords[0], new: passwords[1])
    default:
        throw HelperExit(.badInput, "usage: keychain-pam-helper unlock [--create] [--all-sessions] | change-password (passwords on standard input, each ended by a NUL byte)")
    }
}

do {
    report(try run(Array(CommandLine.arguments.dropFirst())))
    exit(HelperExit.Status.done.rawValue)
} catch {
    report(error.message)
    exit(error.status.rawValue)
}
