import KeychainCredentialHelpers
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// Started under a credential helper's name (the Debian package installs git-credential-keychain
// and docker-credential-keychain as links to this program, which holds the same engine): that
// helper, with its own hardening.
if let helper = CredentialHelperProgram(argument0: CommandLine.arguments.first ?? "") {
    exit(helper.run(arguments: Array(CommandLine.arguments.dropFirst())))
}
// keychainctl: see Keychainctl.swift for the commands and docs/keychainctl.md for the manual.
// Before anything else: no core dump may ever hold a password or a key read later.
ProcessHardening.apply()
exit(CommandRunner.runProcess())
