#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The first 100 bytes of an SQLite database file, read without SQLite, so that a file which is
/// not ours is refused before SQLite has a chance to change it (switching a rollback-journal file
/// to WAL rewrites its header; recovering a hot journal rewrites pages).
///
/// Layout from SQLite's file-format document: magic (0–15), page size (16–17, 1 means 65536),
/// write and read versions (18, 19: 1 rollback journal, 2 WAL), change counter (24–27), size in
/// pages (28–31), user version (60–63), application id (68–71), version-valid-for (92–95); all
/// big-endian.
struct SQLiteHeader: Equatable {
    static let length = 100
    static let magic = Array("SQLite format 3\u{0}".utf8)

    let pageSize: Int
    let writeVersion: UInt8
    let readVersion: UInt8
    let changeCounter: UInt32
    let pageCount: UInt32
    let userVersion: Int32
    let applicationID: UInt32
    let validFor: UInt32
    /// The file's length when the header was read.
    let fileSize: Int

    /// Whether the file is in WAL mode (as every keychain is).
    var isWAL: Bool { writeVersion == 2 && readVersion == 2 }

    /// Whether the page count in the header can be trusted (SQLite's own rule).
    var pageCountIsValid: Bool { pageCount > 0 && changeCounter == validFor }

    /// Whether the file is shorter than the header says, or not a whole number of pages: signs
    /// of truncation that are worth an integrity check (never a verdict by themselves).
    var looksTruncated: Bool {
        if fileSize % pageSize != 0 { return true }
        return pageCountIsValid && fileSize < Int(pageCount) * pageSize
    }

    enum Problem: Error, Equatable {
        /// The file has no bytes at all.
        case empty
        /// The file does not start with SQLite's magic, or is shorter than a header.
        case notSQLite
    }

    /// Parses a header; `fileSize` is the length of the whole file.
    static func parse(_ bytes: [UInt8], fileSize: Int) -> Result<SQLiteHeader, Problem> {
        if fileSize == 0 { return .failure(.empty) }
        guard bytes.count >= length, Array(bytes[0..<16]) == magic else { return .failure(.notSQLite) }
        func integer(_ offset: Int, _ count: Int) -> UInt32 {
            bytes[offset..<offset + count].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        }
        let rawPageSize = Int(integer(16, 2))
        let pageSize = rawPageSize == 1 ? 65_536 : rawPageSize
        // A page size is a power of two from 512 to 65536; anything else is not SQLite's.
        guard pageSize >= 512, pageSize <= 65_536, pageSize & (pageSize - 1) == 0 else { return .failure(.notSQLite) }
        return .success(SQLiteHeader(pageSize: pageSize, writeVersion: bytes[18], readVersion: bytes[19],
                                     changeCounter: integer(24, 4), pageCount: integer(28, 4),
                                     userVersion: Int32(bitPattern: integer(60, 4)), applicationID: integer(68, 4),
                                     validFor: integer(92, 4), fileSize: fileSize))
    }

    /// Reads the header of the file at `path` (which the caller has checked is a private regular
    /// file), without following a symbolic link.
    static func read(_ path: String) throws(KeychainStoreError) -> Result<SQLiteHeader, Problem> {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw .io("cannot open '\(path)': \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .io("cannot inspect '\(path)': \(String(cString: strerror(errno)))") }
        var bytes = [UInt8](repeating: 0, count: length)
        var filled = 0
        while filled < length {
            let got = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + filled, length - filled, off_t(filled)) }
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else { throw .io("cannot read '\(path)': \(String(cString: strerror(errno)))") }
            if got == 0 { break }
            filled += got
        }
        return parse(Array(bytes[0..<filled]), fileSize: Int(info.st_size))
    }
}
