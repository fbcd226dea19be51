import KeychainCredentialHelpers
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// git's credential helper over the keychain: `git config --global credential.helper keychain`
// with this binary on the PATH. docs/credential-helpers.md describes what it stores and how.
exit(CredentialHelperProgram.git.run(arguments: Array(CommandLine.arguments.dropFirst())))
