#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether the front may serve a command line itself.
enum FrontSwitch {
    /// `KEYCHAINCTL_FRONT=off` sends every command line to keychainctl-full, for the equivalence
    /// tests and for ruling the front out when chasing a problem (docs/keychainctl.md).
    static let variable = "KEYCHAINCTL_FRONT"
    /// keychainctl-full's choice of reader (its QuickParse): a command line run with it set is
    /// a test of that reader, which only the full program has.
    static let parserVariable = "KEYCHAINCTL_PARSER"

    static var enabled: Bool {
        if let value = getenv(variable), String(cString: value) == "off" { return false }
        return getenv(parserVariable) == nil
    }
}
