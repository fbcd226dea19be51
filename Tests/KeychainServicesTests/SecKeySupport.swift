import Crypto
import Foundation
import KeychainServices

// Helpers of the SecKey suites: making keys through the public API, and running openssl and
// Python's `cryptography` (python3-cryptography) as independent implementations.

enum SecKeyTestError: Error, CustomStringConvertible {
    case call(String)
    var description: String { switch self { case .call(let s): return s } }
}

/// The error of a failed SecKey call, as the caller takes it (`takeRetainedValue`).
func takeError(_ error: Unmanaged<CFError>?) -> CFError? { error?.takeRetainedValue() }

func makeKey(_ parameters: [CFString: Any]) throws -> SecKey {
    var error: Unmanaged<CFError>?
    var dictionary: [String: Any] = [:]
    for (key, value) in parameters { dictionary[key as String] = value }
    guard let key = SecKeyCreateRandomKey(dictionary as CFDictionary, &error) else {
        throw SecKeyTestError.call("SecKeyCreateRandomKey failed: \(String(describing: takeError(error)))")
    }
    return key
}

func ecKey(_ bits: Int = 256) throws -> SecKey {
    try makeKey([kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits: bits])
}

func externalRepresentation(_ key: SecKey) throws -> Data {
    var error: Unmanaged<CFError>?
    guard let data = SecKeyCopyExternalRepresentation(key, &error) else { throw SecKeyTestError.call("export failed") }
    return data as Data
}

func publicKey(_ key: SecKey) throws -> SecKey {
    guard let key = SecKeyCopyPublicKey(key) else { throw SecKeyTestError.call("no public key") }
    return key
}

func sign(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ data: Data) -> (Data?, CFError?) {
    var error: Unmanaged<CFError>?
    let signature = SecKeyCreateSignature(key, algorithm, data as CFData, &error)
    return (signature.map { $0 as Data }, takeError(error))
}

func verify(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ data: Data, _ signature: Data) -> (Bool, CFError?) {
    var error: Unmanaged<CFError>?
    let valid = SecKeyVerifySignature(key, algorithm, data as CFData, signature as CFData, &error)
    return (valid, takeError(error))
}

func encrypt(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ data: Data) -> (Data?, CFError?) {
    var error: Unmanaged<CFError>?
    let result = SecKeyCreateEncryptedData(key, algorithm, data as CFData, &error)
    return (result.map { $0 as Data }, takeError(error))
}

func decrypt(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ data: Data) -> (Data?, CFError?) {
    var error: Unmanaged<CFError>?
    let result = SecKeyCreateDecryptedData(key, algorithm, data as CFData, &error)
    return (result.map { $0 as Data }, takeError(error))
}

/// A scratch directory for files handed to openssl and Python.
func scratchDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("seckey-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Runs a program; returns its exit status and standard output.
@discardableResult
func runTool(_ path: String, _ arguments: [String], input: Data? = nil) throws -> (status: Int32, output: Data) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    let stdin = Pipe()
    process.standardInput = stdin
    try process.run()
    if let input { stdin.fileHandleForWriting.write(input) }
    try stdin.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, data)
}

func openssl(_ arguments: [String], input: Data? = nil) throws -> (status: Int32, output: Data) {
    try runTool("/usr/bin/openssl", arguments, input: input)
}

/// Runs a Python script with python3-cryptography (scripts/install-system-packages.sh installs it).
func python(_ script: String, _ arguments: [String]) throws -> (status: Int32, output: Data) {
    try runTool("/usr/bin/python3", ["-c", script] + arguments)
}

extension Data {
    var hex: String { map { String(format: "%02x", $0) }.joined() }
    init?(hex: String) {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex) ?? hex.endIndex
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        self.init(bytes)
    }
}
