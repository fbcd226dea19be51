internal import CSQLite
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension SQLiteConnection {
    /// The whole database as one image (`sqlite3_serialize`): what a file of it would hold, the
    /// WAL's committed pages included, read in one transaction so that it is consistent while
    /// other connections write. Nil when SQLite cannot make it (no memory).
    func serializedImage() -> Data? {
        var size: sqlite3_int64 = 0
        guard let bytes = sqlite3_serialize(handle, "main", &size, 0) else { return nil }
        defer { sqlite3_free(bytes) }
        return Data(bytes: bytes, count: Int(size))
    }
}
