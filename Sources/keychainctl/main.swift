import CKeychainSystem
import KeychainctlCommandLine
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// keychainctl, the installed command: a small front that reads the per-credential command
// lines with the reader keychainctl-full uses (PasswordRequest) and serves them through the same
// executor (PasswordExecutor) over the engine alone, and hands every other command line, and
// every one it is not sure of, to the full program keychainctl-full (FullProgram). Why: a process
// that links Foundation, swift-argument-parser and the SecItem layer pays for loading them on
// every `find-generic-password -w` a script or helper runs (docs/design-notes.md, "keychainctl's
// front"; BENCHMARKS.md section 4).

// First, as keychainctl-full does: no core dump may ever hold a password read later.
_ = cks_disable_core_dumps()

// keychainctl-full reads the line after the same normalisation (a trailing `-w`).
let arguments = ArgumentNormalizer.normalize(Array(CommandLine.arguments.dropFirst()))
guard let request = PasswordRequest(commandLine: arguments), Front.serves(request), let served = Front.run(request) else {
    FullProgram.handOff()
}
if CommandLinePasswords.redact(arguments).foundPassword {
    DescriptorOutput.write(STDERR_FILENO, Array(CommandLinePasswords.warning.utf8))
}
DescriptorOutput.write(STDOUT_FILENO, served.standardOutput)
DescriptorOutput.write(STDERR_FILENO, served.standardError)
exit(0)
