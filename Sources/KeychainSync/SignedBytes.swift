#if Sync  // built only with the Sync trait (Package.swift)
import Foundation

/// The byte layouts of what devices sign and seal for each other (roster statements, key
/// shares, manifests): integers little-endian, variable fields behind a 32-bit length. Every
/// layout begins with a label naming it and its version, so that bytes signed for one purpose
/// never verify as another.
struct ByteWriter {
    private(set) var data = Data()

    init(label: String) {
        data += Data(label.utf8)
        data.append(0)
    }

    /// Goes on after bytes already laid out (a signature after what it signs).
    init(continuing data: Data) { self.data = data }

    mutating func integer(_ value: Int64) {
        withUnsafeBytes(of: value.littleEndian) { data += $0 }
    }

    mutating func byte(_ value: UInt8) { data.append(value) }

    /// A field of any length, behind its length.
    mutating func field(_ bytes: Data) {
        withUnsafeBytes(of: UInt32(bytes.count).littleEndian) { data += $0 }
        data += bytes
    }

    mutating func field(_ text: String) { field(Data(text.utf8)) }

    /// Bytes of a length both sides know, as they are.
    mutating func fixed(_ bytes: Data) { data += bytes }
}

/// Reads what ``ByteWriter`` wrote; every read is bounds-checked and fails with `what` named.
struct ByteScanner {
    private let bytes: [UInt8]
    private var offset = 0
    private let what: String

    /// Starts after `label`, which must open `data`.
    init(_ data: Data, label: String, what: String) throws(SyncError) {
        bytes = [UInt8](data)
        self.what = what
        let expected = [UInt8](label.utf8) + [0]
        guard bytes.starts(with: expected) else { throw .crypto("\(what) is not in a format this version knows") }
        offset = expected.count
    }

    var isAtEnd: Bool { offset == bytes.count }

    private mutating func take(_ count: Int) throws(SyncError) -> ArraySlice<UInt8> {
        guard count >= 0, bytes.count - offset >= count else { throw .crypto("\(what) is cut short") }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    mutating func integer() throws(SyncError) -> Int64 {
        Int64(bitPattern: try take(8).reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
    }

    mutating func byte() throws(SyncError) -> UInt8 { try take(1).first! }

    mutating func field(limit: Int) throws(SyncError) -> Data {
        let length = try take(4).reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard length <= limit else { throw .crypto("\(what) has a field longer than \(limit) bytes") }
        return Data(try take(Int(length)))
    }

    mutating func text(limit: Int) throws(SyncError) -> String {
        guard let text = String(data: try field(limit: limit), encoding: .utf8) else { throw .crypto("\(what) has text that is not UTF-8") }
        return text
    }

    mutating func fixed(_ count: Int) throws(SyncError) -> Data { Data(try take(count)) }

    func finish() throws(SyncError) {
        guard isAtEnd else { throw .crypto("\(what) has trailing bytes") }
    }
}
#endif
