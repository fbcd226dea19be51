// A helper process for multi-process tests. Usage: keychain-test-worker COMMAND KEYCHAIN-PATH ARGS…
// The device key comes from the environment (SWIFT_KEYCHAIN_DEVICE_KEY_FILE or XDG_CONFIG_HOME).
// Prints one line of result; the exit code is 0 unless the command itself could not run.
import Foundation
import KeychainServices
import KeychainStore

/// Writes a line unbuffered, so a killed worker has reported everything it acknowledged.
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: keychain-test-worker COMMAND KEYCHAIN ARGS…\n".utf8))
    exit(64)
}
let command = arguments[0]
let file: KeychainFile
do {
    file = try KeychainFile.open(at: URL(fileURLWithPath: arguments[1]))
} catch {
    say("open-failed \(error.status)")
    exit(1)
}
KeychainContext.setProcessDefault(KeychainContext(file: file, identity: .unconfigured))
let rest = Array(arguments.dropFirst(2))

switch command {
case "unlock":
    do { try file.unlock(password: rest[0]); say("ok") } catch { say("status \(error.status)") }
case "lock":
    file.lock()
    say("ok")
case "sharing":
    switch file.unlockSharing {
    case .kernelKeyring: say("kernel-keyring")
    case .perProcess(let reason): say("per-process \(reason)")
    }
case "add":
    // add ACCOUNT VALUE PDMN
    let status = SecItemAdd([kSecClass: kSecClassGenericPassword, kSecAttrAccount: rest[0] as NSString,
                             kSecValueData: Data(rest[1].utf8) as NSData, kSecAttrAccessible: rest[2] as NSString] as NSDictionary, nil)
    say("status \(status)")
case "is-locked":
    say(file.isLocked ? "locked" : "unlocked")
case "read":
    // read ACCOUNT: prints "status S" and, on success, "value V"
    var result: CFTypeRef?
    let status = SecItemCopyMatching([kSecClass: kSecClassGenericPassword, kSecAttrAccount: rest[0] as NSString,
                                      kSecReturnData: kCFBooleanTrue!] as NSDictionary, &result)
    say("status \(status)")
    if let data = result as? Data { say("value \(String(decoding: data, as: UTF8.self))") }
case "toggle-password":
    // toggle-password A B: changes the password back and forth until killed, printing each success.
    var (current, next) = (rest[0], rest[1])
    while true {
        do {
            try file.setPassword(next, currentPassword: current)
            say("now \(next)")
            (current, next) = (next, current)
        } catch {
            say("status \(error.status)")
            exit(2)
        }
    }
case "soak":
    SoakWorkload.run(arguments: rest)
case "soak-verify":
    SoakWorkload.verify(file: file, arguments: rest)
case "memory-probe":
    MemoryProbeWorkload.run(file: file, arguments: rest)
case "fill":
    DiskFullWorkload.run(arguments: rest)
case "crash-workload":
    CrashWorkload.run(file: file, arguments: rest)
default:
    say("unknown command")
    exit(64)
}
