import KeychainctlCommandLine
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// keychainctl-full, the whole command-line program, installed beside the front.
enum FullProgram {
    static let executableName = "keychainctl-full"
    /// keychainctl's status for a failure without a keychain status (its `ExitStatus.failure`).
    static let failureStatus: Int32 = 1

    /// Replaces this process with keychainctl-full, with the same argv (argv[0] too, so its
    /// messages name the program as the user called it) and the same environment.
    static func handOff() -> Never {
        let path = location()
        var argv: [UnsafeMutablePointer<CChar>?] = CommandLine.arguments.map { strdup($0) } + [nil]
        execv(path, &argv)
        let reason = String(cString: strerror(errno))
        let message = "keychainctl: cannot run \(path): \(reason) (keychainctl-full is installed beside keychainctl and runs every command keychainctl does not serve itself)\n"
        DescriptorOutput.write(STDERR_FILENO, Array(message.utf8))
        exit(failureStatus)
    }

    /// keychainctl-full in the folder of this executable (/proc/self/exe, so that a symbolic
    /// link to keychainctl elsewhere still finds it).
    static func location() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return executableName }
        let me = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = me.lastIndex(of: "/") else { return executableName }
        return String(me[..<slash]) + "/" + executableName
    }
}
