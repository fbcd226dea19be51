import CKeychainSystem
import KeychainStore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// keychain-lookup-probe: the measuring stick for a keychainctl that serves
// `find-generic-password -s S -a A -w` without Foundation, swift-argument-parser or the SecItem
// layer (BENCHMARKS.md section 4). It does what such a program would do on its common path:
// read the command line by hand, open the default keychain, find the one generic password by
// service and account through the engine's Swift API as the administrator keychainctl is, and
// print it; anything else it declines by exec'ing what `KEYCHAIN_LOOKUP_PROBE_FALLBACK` names
// (what a fallback to the full CLI costs before the exec). Not installed; not a CLI.
//
//   keychain-lookup-probe find-generic-password -s SERVICE -a ACCOUNT -w
//   keychain-lookup-probe add-generic-password -s SERVICE -a ACCOUNT -w PASSWORD   (setup)

_ = cks_disable_core_dumps()

func output(_ bytes: [UInt8]) {
    _ = bytes.withUnsafeBufferPointer { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
}

/// Declines: runs the fallback program with the same arguments, or exits 2 without one.
func decline() -> Never {
    let arguments = CommandLine.arguments
    if let fallback = getenv("KEYCHAIN_LOOKUP_PROBE_FALLBACK") {
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        execv(fallback, &argv)
    }
    exit(2)
}

/// `-s S -a A` and the flags in `flags`, each once, in any order; nil for anything else.
func serviceAndAccount(_ arguments: ArraySlice<String>, flags: Set<String>) -> (service: String, account: String, values: [String: String])? {
    var values: [String: String] = [:]
    var index = arguments.startIndex
    while index < arguments.endIndex {
        let option = arguments[index]
        guard ["-s", "-a", "-w"].contains(option), values[option] == nil else { return nil }
        if flags.contains(option) {
            values[option] = ""
            index += 1
            continue
        }
        guard index + 1 < arguments.endIndex, !arguments[index + 1].hasPrefix("-") else { return nil }
        values[option] = arguments[index + 1]
        index += 2
    }
    guard let service = values["-s"], let account = values["-a"] else { return nil }
    return (service, account, values)
}

let arguments = CommandLine.arguments
guard arguments.count > 1 else { decline() }
do {
    switch arguments[1] {
    case "find-generic-password":
        guard let given = serviceAndAccount(arguments.dropFirst(2), flags: ["-w"]), given.values["-w"] != nil else { decline() }
        let file = try KeychainFile.open(at: KeychainPaths.defaultKeychain(), create: false)
        let query = ItemQuery(itemClass: .genericPassword,
                              filters: [AttributeName.service: .string(given.service), AttributeName.account: .string(given.account)])
        guard let secret = try file.find(query, identity: .administrator(), limit: 1, includeSecrets: true).first?.secret else { decline() }
        output(Array(secret) + [10])
    case "add-generic-password":
        guard let given = serviceAndAccount(arguments.dropFirst(2), flags: []), let password = given.values["-w"] else { decline() }
        let file = try KeychainFile.open(at: KeychainPaths.defaultKeychain())
        _ = try file.add(.genericPassword,
                         attributes: [AttributeName.service: .string(given.service), AttributeName.account: .string(given.account),
                                      AttributeName.label: .string(given.service)],
                         secret: Data(password.utf8), identity: .administrator())
    default:
        decline()
    }
} catch {
    decline()
}
