#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Unbuffered writes of whole byte buffers to a file descriptor, shared by keychainctl's front,
/// keychainctl-full's Console and the credential helpers: no library buffer ever holds what they
/// write (a secret, often), and the front and the full program order their output the same way.
package enum DescriptorOutput {
    /// Writes all of `bytes`, retrying after a signal; a closed pipe ends the write quietly (the
    /// reader has gone, nothing useful is left to do with the output).
    package static func write(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { buffer in
                #if canImport(Glibc)
                Glibc.write(fd, buffer.baseAddress, buffer.count)
                #elseif canImport(Musl)
                Musl.write(fd, buffer.baseAddress, buffer.count)
                #else
                Darwin.write(fd, buffer.baseAddress, buffer.count)
                #endif
            }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
    }
}
