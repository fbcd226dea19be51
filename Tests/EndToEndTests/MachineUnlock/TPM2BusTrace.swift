import Foundation
import Testing

/// What crossed the bus to the software TPM, as tpm2-tss's TCTI layer logs it: with
/// `TSS2_LOG=tcti+debug` the swtpm TCTI hex-dumps every command it writes and every response
/// it reads, and `TSS2_LOGFILE` appends each tool's log to one file. Each dump starts at
/// offset `0000`, one line of up to 16 bytes each (`0010: 8001…  ascii`).
struct TPM2BusTrace {
    /// The command and response buffers, in the order they were logged.
    let buffers: [[UInt8]]

    init(file: String) throws {
        let text = try String(contentsOfFile: file, encoding: .utf8)
        var buffers: [[UInt8]] = []
        for line in text.split(separator: "\n") {
            guard let (offset, bytes) = Self.dumpLine(line) else { continue }
            if offset == 0 { buffers.append([]) }
            guard !buffers.isEmpty else { continue }
            buffers[buffers.count - 1] += bytes
        }
        self.buffers = buffers
    }

    /// The offset and bytes of one hex-dump line, nil for any other log line.
    private static func dumpLine(_ line: Substring) -> (Int, [UInt8])? {
        let parts = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 5, parts[0].hasSuffix(":"),
              let offset = Int(parts[0].dropLast(), radix: 16) else { return nil }
        let hex = parts[1].prefix { $0.isHexDigit }
        guard !hex.isEmpty, hex.count % 2 == 0, hex.count <= 32 else { return nil }
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return (offset, bytes)
    }

    /// Whether a command with this command code (TPM 2.0 Part 2, TPM_CC) was sent: a
    /// command buffer is tag (2 bytes), size (4), then the code (4).
    func sentCommand(_ code: UInt32) -> Bool {
        let wanted = withUnsafeBytes(of: code.bigEndian) { Array($0) }
        return buffers.contains { $0.count >= 10 && $0[0] == 0x80 && Array($0[6..<10]) == wanted }
    }

    /// The first buffer that holds any `window`-byte run of `secret`, nil when none does.
    func firstBufferHolding(_ secret: [UInt8], window: Int = 8) -> [UInt8]? {
        guard secret.count >= window else { return buffers.first { $0.count >= secret.count && contains($0, secret) } }
        let pieces = (0...(secret.count - window)).map { Array(secret[$0..<$0 + window]) }
        return buffers.first { buffer in pieces.contains { contains(buffer, $0) } }
    }

    private func contains(_ buffer: [UInt8], _ piece: [UInt8]) -> Bool {
        guard buffer.count >= piece.count else { return false }
        return (0...(buffer.count - piece.count)).contains { Array(buffer[$0..<$0 + piece.count]) == piece }
    }

    static let createCommand: UInt32 = 0x0000_0153
    static let unsealCommand: UInt32 = 0x0000_015E
}

/// `tpm2_create` and `tpm2_unseal` wrapped so a test learns the unlock key keychainctl hands
/// the TPM and gets back: each wrapper keeps a copy of the key (what `tpm2_create` reads on
/// standard input, what `tpm2_unseal` writes) and runs the real tool. Put first on the PATH,
/// they are what keychainctl finds.
struct TPM2KeyCapture {
    let folder: URL
    let sealedCopy: URL
    let unsealedCopy: URL

    init(_ sandbox: CLISandbox) throws {
        folder = URL(fileURLWithPath: sandbox.path("tpm2-wrappers"))
        sealedCopy = URL(fileURLWithPath: sandbox.path("key-into-tpm2_create"))
        unsealedCopy = URL(fileURLWithPath: sandbox.path("key-from-tpm2_unseal"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let create = try #require(MachineUnlockTools.find("tpm2_create")).path
        let unseal = try #require(MachineUnlockTools.find("tpm2_unseal")).path
        try Self.install("tpm2_create", "#!/bin/sh\ntee '\(sealedCopy.path)' | '\(create)' \"$@\"\n", in: folder)
        try Self.install("tpm2_unseal", """
            #!/bin/sh
            '\(unseal)' "$@" > '\(unsealedCopy.path)'
            status=$?
            cat '\(unsealedCopy.path)'
            exit $status

            """, in: folder)
    }

    private static func install(_ name: String, _ script: String, in folder: URL) throws {
        let url = folder.appendingPathComponent(name)
        try Data(script.utf8).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: url.path)
    }

    /// The environment that puts the wrappers first and logs the TCTI's traffic to `traceFile`.
    func environment(_ tpm: SoftwareTPM, traceFile: String) -> [String: String] {
        tpm.environment.merging([
            "PATH": folder.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            "TSS2_LOG": "tcti+debug",
            "TSS2_LOGFILE": traceFile,
        ]) { $1 }
    }
}
