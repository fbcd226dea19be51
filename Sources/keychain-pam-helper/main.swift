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
//   keychain-pam-helper change-password                        old\0new\0 on standard input
//
// With `--keeper SOCKET --user UID` (the module's `keeper=` option, for which it runs the helper
// as root) the login keychain is the system keeper's: the helper hands the passwords to it.

// It holds passwords and, after an unlock, class keys: no core dump, no debugger of the user's.
_ = cks_disable_core_dumps()

func report(_ line: String) {
    let text = "keychain-pam-helper: \(line)\n"
    _ = text.utf8CString.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
}

let usage = "usage: keychain-pam-helper unlock [--create] [--all-sessions] | change-password, either with [--keeper SOCKET --user UID] (passwords on standard input, each ended by a NUL byte)"

/// The command line: the operation, its flags, and the keeper's socket and user when served.
struct HelperArguments {
    var operation: String
    var flags: Set<String> = []
    var keeper: (socket: String, user: UInt32)?

    init(_ arguments: [String]) throws(HelperExit) {
        guard let operation = arguments.first, ["unlock", "change-password"].contains(operation) else { throw HelperExit(.badInput, usage) }
        self.operation = operation
        let allowed: Set<String> = operation == "unlock" ? ["--create", "--all-sessions"] : []
        var socket: String?, user: UInt32?
        var rest = arguments.dropFirst()
        while let argument = rest.popFirst() {
            switch argument {
            case "--keeper" where socket == nil:
                guard let value = rest.popFirst(), value.hasPrefix("/") else { throw HelperExit(.badInput, usage) }
                socket = value
            case "--user" where user == nil:
                guard let value = rest.popFirst().flatMap({ UInt32($0) }) else { throw HelperExit(.badInput, usage) }
                user = value
            case let flag where allowed.contains(flag) && !flags.contains(flag):
                flags.insert(flag)
            default:
                throw HelperExit(.badInput, usage)
            }
        }
        switch (socket, user) {
        case (let socket?, let user?): keeper = (socket, user)
        case (nil, nil): keeper = nil
        default: throw HelperExit(.badInput, usage)
        }
    }
}

func run(_ arguments: [String]) throws(HelperExit) -> String {
    let parsed = try HelperArguments(arguments)
    var passwords = try SecretInput.readPasswords(count: parsed.operation == "unlock" ? 1 : 2)
    defer { for index in passwords.indices { SecretBuffer.wipe(&passwords[index]) } }
    if let keeper = parsed.keeper {
        let served = ServedLoginKeychain(socketPath: keeper.socket, user: keeper.user)
        if parsed.operation == "unlock" { return try served.unlock(password: passwords[0], create: parsed.flags.contains("--create")) }
        return try served.changePassword(old: passwords[0], new: passwords[1])
    }
    let keychain = LoginKeychain()
    if parsed.operation == "unlock" {
        return try keychain.unlock(password: passwords[0], create: parsed.flags.contains("--create"),
                                   scope: parsed.flags.contains("--all-sessions") ? .allSessions : .thisSession)
    }
    return try keychain.changePassword(old: passwords[0], new: passwords[1])
}

do {
    report(try run(Array(CommandLine.arguments.dropFirst())))
    exit(HelperExit.Status.done.rawValue)
} catch {
    report(error.message)
    exit(error.status.rawValue)
}
