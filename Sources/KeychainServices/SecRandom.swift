#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

// Cryptographically secure random bytes from the operating system. getentropy(3) is glibc's
// wrapper over the getrandom(2) system call (the Swift Glibc module does not expose getrandom
// itself); it blocks only until the kernel's generator has been seeded at boot, and then never
// fails for requests of up to 256 bytes. /dev/urandom is kept as a fallback for kernels without
// the system call.

/// A source of random numbers. Only the default source exists, and it is `nil`.
public typealias SecRandomRef = OpaquePointer

/// The default random number source: the operating system's generator.
nonisolated(unsafe) public let kSecRandomDefault: SecRandomRef? = nil

/// Fills `bytes` with `count` cryptographically secure random bytes.
///
/// Returns `errSecSuccess` (0) when the whole buffer was filled, `errSecParam` when `rnd` is not
/// ``kSecRandomDefault``, and -1 when the system's generator could not be read or `count` is
/// negative. On failure the contents of the buffer are unspecified, so always check the result.
@discardableResult
public func SecRandomCopyBytes(_ rnd: SecRandomRef?, _ count: Int, _ bytes: UnsafeMutableRawPointer) -> Int32 {
    guard rnd == kSecRandomDefault else { return errSecParam }
    guard count >= 0 else { return -1 }
    if count == 0 { return errSecSuccess }
    let buffer = UnsafeMutableRawBufferPointer(start: bytes, count: count)
    if fillFromGetEntropy(buffer) || fillFromDeviceFile(buffer) {
        return errSecSuccess
    }
    return -1
}

/// The largest request getentropy(3) accepts in one call.
private let getEntropyLimit = 256

/// Fills the buffer using getentropy(3), in chunks it accepts. False if the call is unavailable
/// or fails for a reason other than an interruption.
private func fillFromGetEntropy(_ buffer: UnsafeMutableRawBufferPointer) -> Bool {
    guard let base = buffer.baseAddress else { return true }
    var offset = 0
    while offset < buffer.count {
        let length = min(getEntropyLimit, buffer.count - offset)
        if getentropy(base + offset, length) == 0 {
            offset += length
        } else if errno == EINTR {
            continue
        } else {
            return false
        }
    }
    return true
}

/// Fills the buffer from /dev/urandom, looping over short reads and interruptions.
private func fillFromDeviceFile(_ buffer: UnsafeMutableRawBufferPointer) -> Bool {
    guard let base = buffer.baseAddress else { return true }
    let descriptor = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var offset = 0
    while offset < buffer.count {
        let result = read(descriptor, base + offset, buffer.count - offset)
        if result > 0 {
            offset += result
        } else if result < 0 && errno == EINTR {
            continue
        } else {
            return false
        }
    }
    return true
}
#endif
