import Foundation
import KeychainTestSupport

/// A malformed hexadecimal vector: a typing error in a test, reported rather than trapped.
struct MalformedHex: Error, CustomStringConvertible {
    let text: String
    var description: String { "not hexadecimal: \(text.prefix(40))…" }
}

/// The bytes a vector writes in hexadecimal (either case; spaces and line breaks ignored, so
/// long values can be laid out as the published files have them).
func bytes(_ hex: String) throws -> Data {
    let digits = Array(hex.utf8.filter { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\n") })
    guard digits.count % 2 == 0 else { throw MalformedHex(text: hex) }
    var result = Data(capacity: digits.count / 2)
    for index in stride(from: 0, to: digits.count, by: 2) {
        guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else {
            throw MalformedHex(text: hex)
        }
        result.append(byte)
    }
    return result
}

extension Data {
    /// Lower-case hexadecimal, for comparing with a vector and for reading a failure.
    var hex: String { map { String(format: "%02x", $0) }.joined() }
}

extension Array where Element == UInt8 {
    var hex: String { Data(self).hex }
}

/// Runs /usr/bin/openssl with `input` on its standard input; its exit status and standard output.
func openssl(_ arguments: [String], input: Data) throws -> (status: Int32, output: Data) {
    let inputFile = FileManager.default.temporaryDirectory.appendingPathComponent("crypto-vector-\(UUID().uuidString)")
    try input.write(to: inputFile)
    defer { try? FileManager.default.removeItem(at: inputFile) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
    process.arguments = arguments
    // Every descriptor closed here, not when Foundation lets go of the process (see
    // Tests/Support/ProcessHandles.swift for why the count matters).
    let input = try FileHandle(forReadingFrom: inputFile)
    defer { try? input.close() }
    process.standardInput = input
    let output = Pipe()
    defer { try? output.fileHandleForReading.close() }
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = try output.fileHandleForReading.readToEnd() ?? Data()
    return (process.waitForExit().terminationStatus, data)
}
