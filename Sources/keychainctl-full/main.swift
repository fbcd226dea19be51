#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// keychainctl: see Keychainctl.swift for the commands and docs/keychainctl.md for the manual.
// Before anything else: no core dump may ever hold a password or a key read later.
ProcessHardening.apply()
exit(CommandRunner.runProcess())
