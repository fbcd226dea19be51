import KeychainCredentialHelpers
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// docker's credential helper over the keychain: `"credsStore": "keychain"` in
// ~/.docker/config.json with this binary on the PATH. docs/credential-helpers.md describes it.
exit(CredentialHelperProgram.docker.run(arguments: Array(CommandLine.arguments.dropFirst())))
