import KeychainStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The passwords pam_keychain.so writes on the helper's standard input: each one followed by a
/// NUL byte (a C string cannot hold one, so every PAM password can be sent this way), then the
/// end of the input.
///
/// Each is read into locked memory that is wiped afterwards (``SecretBuffer``); the copies handed
/// back are wiped by the caller. Anything that is not exactly the expected number of non-empty,
/// NUL-terminated UTF-8 passwords of at most ``SecretBuffer/capacity`` bytes is refused before
/// the keychain is touched.
enum SecretInput {
    static func readPasswords(count: Int, from fd: Int32 = STDIN_FILENO) throws(HelperExit) -> [[UInt8]] {
        var passwords: [[UInt8]] = []
        do throws(HelperExit) {
            for index in 0..<count {
                let name = count == 1 ? "the password" : (index == 0 ? "the old password" : "the new password")
                passwords.append(try readOne(name, from: fd))
            }
            var extra: UInt8 = 0
            guard readByte(fd, &extra) == 0 else {
                extra = 0
                throw HelperExit(.badInput, "more input than \(count == 1 ? "one password" : "\(count) passwords"); nothing was done")
            }
            return passwords
        } catch {
            for index in passwords.indices { SecretBuffer.wipe(&passwords[index]) }
            throw error
        }
    }

    private static func readOne(_ name: String, from fd: Int32) throws(HelperExit) -> [UInt8] {
        var buffer = SecretBuffer()
        var overflow = false
        while true {
            var byte: UInt8 = 0
            let got = readByte(fd, &byte)
            if got < 0 { throw HelperExit(.badInput, "standard input could not be read; nothing was done") }
            if got == 0 { throw HelperExit(.badInput, "\(name) was not given in full (the input ended early); nothing was done") }
            if byte == 0 { break }
            if !buffer.append(byte) { overflow = true }
            byte = 0
        }
        if overflow { throw HelperExit(.badInput, "\(name) is longer than \(SecretBuffer.capacity) bytes; nothing was done") }
        if buffer.isEmpty { throw HelperExit(.badInput, "\(name) is empty; nothing was done") }
        var bytes = buffer.bytes()
        guard String(validating: bytes, as: UTF8.self) != nil else {
            SecretBuffer.wipe(&bytes)
            throw HelperExit(.badInput, "\(name) is not UTF-8 text, which a keychain password must be; nothing was done")
        }
        return bytes
    }

    private static func readByte(_ fd: Int32, _ byte: inout UInt8) -> Int {
        while true {
            let got = read(fd, &byte, 1)
            if got < 0 && errno == EINTR { continue }
            return got
        }
    }
}
