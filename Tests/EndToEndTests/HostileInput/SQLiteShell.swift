import Foundation
import Testing

/// The `sqlite3` command-line tool pointed at a keychain file: how the proofs read and damage the
/// file the way an attacker with the file would, without going through the engine.
///
/// It needs the `sqlite3` program (Debian package `sqlite3`); a test using it fails, rather than
/// skips, when it is missing.
struct SQLiteShell {
    let database: URL

    /// Runs `sql` and returns what the tool printed, one row per line, columns separated by `|`.
    @discardableResult
    func run(_ sql: String) throws -> String {
        let tool = try ProofSupport.tool("sqlite3")
        let outcome = try ProofSupport.run(tool, ["-batch", "-cmd", ".timeout 10000", database.path, sql],
                                           environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"])
        guard outcome.status == 0, outcome.stderr.isEmpty else {
            throw ProofFailure("sqlite3 failed (\(outcome.status)): \(outcome.stderr)")
        }
        return outcome.stdout.trimmingCharacters(in: .newlines)
    }

    /// One blob column of the row with persistent identity `reference` (the 16 bytes after the
    /// 4-byte class prefix of a `kSecValuePersistentRef`).
    func blob(_ column: String, table: String, reference: Data) throws -> Data? {
        let hex = try run("SELECT quote(\(column)) FROM \(table) WHERE persistref = X'\(reference.hexString)';")
        if hex == "NULL" { return nil }
        guard hex.hasPrefix("X'"), hex.hasSuffix("'"), let data = Data(hexString: String(hex.dropFirst(2).dropLast())) else {
            throw ProofFailure("no blob \(column) for that row: \(hex)")
        }
        return data
    }

    /// Sets one column of the row with identity `reference` to `value` (a blob, or NULL for nil);
    /// fails unless exactly one row changed.
    func setBlob(_ column: String, table: String, reference: Data, to value: Data?) throws {
        let literal = value.map { "X'\($0.hexString)'" } ?? "NULL"
        let changed = try run("UPDATE \(table) SET \(column) = \(literal) WHERE persistref = X'\(reference.hexString)'; SELECT changes();")
        guard changed == "1" else { throw ProofFailure("expected one row to change, got \(changed)") }
    }

    /// Sets an integer column of the row with identity `reference`.
    func setInteger(_ column: String, table: String, reference: Data, to value: Int) throws {
        let changed = try run("UPDATE \(table) SET \(column) = \(value) WHERE persistref = X'\(reference.hexString)'; SELECT changes();")
        guard changed == "1" else { throw ProofFailure("expected one row to change, got \(changed)") }
    }

    /// Moves everything in the write-ahead log into the main file and empties the log.
    func checkpoint() throws {
        let result = try run("PRAGMA wal_checkpoint(TRUNCATE);")
        // The first column is 1 when the checkpoint could not finish (another connection busy).
        guard result.hasPrefix("0|") else { throw ProofFailure("checkpoint did not complete: \(result)") }
    }
}

extension Data {
    var hexString: String { map { String(format: "%02x", $0) }.joined() }

    init?(hexString: String) {
        guard hexString.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(hexString.count / 2)
        var index = hexString.startIndex
        while index < hexString.endIndex {
            let next = hexString.index(index, offsetBy: 2)
            guard let byte = UInt8(hexString[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        self.init(bytes)
    }
}
