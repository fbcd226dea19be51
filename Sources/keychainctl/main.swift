#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// keychainctl: see Keychainctl.swift for the commands and docs/keychainctl.md for the manual.
exit(CommandRunner.runProcess())
