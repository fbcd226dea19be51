// keychain-auth-probe: a helper for the terminal tests of KeychainAuthentication.
//
// The keychain is the one SWIFT_KEYCHAIN_PATH names, opened with the device key from the
// environment (SWIFT_KEYCHAIN_DEVICE_KEY_FILE or XDG_CONFIG_HOME), as every program here does.
//
//   keychain-auth-probe set-password      sets the password from KEYCHAIN_AUTH_PROBE_PASSWORD
//                                         (kept off the command line, so no terminal shows it)
//   keychain-auth-probe obtain REASON     asks for the password with the terminal authenticator,
//                                         as a SecItem read of a protected item would
//
// Prints stable words: "password-set"; for obtain, "outcome: <success | LAError code name>",
// then "terminal: restored" or "terminal: changed" (whether the terminal's settings are what
// they were before the prompt; "terminal: none" without one). Exit status 0 unless it could not run.
import Foundation
import KeychainAuthentication
import KeychainStore
#if canImport(Glibc)
import Glibc
#endif

func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

func fail(_ line: String) -> Never {
    FileHandle.standardError.write(Data((line + "\n").utf8))
    exit(70)
}

/// The terminal's local modes and control characters, to tell whether the prompt restored them.
func terminalSettings() -> [UInt8]? {
    let fd = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var settings = termios()
    guard tcgetattr(fd, &settings) == 0 else { return nil }
    return withUnsafeBytes(of: settings.c_lflag) { Array($0) } + withUnsafeBytes(of: settings.c_iflag) { Array($0) }
        + withUnsafeBytes(of: settings.c_cc) { Array($0) }
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first else { fail("usage: keychain-auth-probe set-password | obtain REASON") }
let file: KeychainFile
do {
    file = try KeychainContext.current().file
} catch {
    fail("open-failed \(error.status)")
}

switch command {
case "set-password":
    guard let password = ProcessInfo.processInfo.environment["KEYCHAIN_AUTH_PROBE_PASSWORD"] else {
        fail("KEYCHAIN_AUTH_PROBE_PASSWORD is not set")
    }
    do {
        try file.setPassword(password, currentPassword: nil)
        say("password-set")
    } catch {
        fail("set-password-failed \(error.status)")
    }
case "obtain":
    let reason = arguments.count > 1 ? arguments[1] : ""
    let before = terminalSettings()
    KeychainAuthenticators.install(.terminal)
    do {
        _ = try obtainPresenceCredential(for: file, context: nil, policy: .deviceOwnerAuthentication,
                                         reason: reason, interactionAllowed: true)
        say("outcome: success")
    } catch {
        say("outcome: \(error.code)")
    }
    let after = terminalSettings()
    say(before == nil ? "terminal: none" : before == after ? "terminal: restored" : "terminal: changed")
default:
    fail("unknown command \(command)")
}
