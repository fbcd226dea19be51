#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Foundation

/// One SecItem call as a served process sends it to the keeper, and the keeper's answer
/// (docs/design-notes.md, "The keeper"). Each is one length-prefixed message on the socket.
///
/// Request: the protocol version, the operation, the query (an array of add dictionaries for
/// ``Operation/addAll``), the changes (update only; null otherwise), and whether the caller passed a result pointer: `SecItemCopyMatching` without
/// one only asks whether something matches, and the keeper must be asked the same question.
/// Answer: the version, the status, and the result (null when there is none).
struct KeeperCall: Equatable, Sendable {
    /// The first byte of every message; a keeper answers another version with
    /// ``KeeperAnswer/unknownVersion`` and closes the connection.
    static let version: UInt8 = 1
    /// The largest message either side reads: a query with a certificate chain in an item list
    /// is some kilobytes; sixteen megabytes is far past any keychain item (the engine's own
    /// bound on an item's data is smaller) and small enough that a hostile length costs little.
    static let maximumMessageLength = 16 << 20

    enum Operation: UInt8 {
        case add = 1, copyMatching, update, delete
        /// Several adds as one transaction, the query an array of add dictionaries:
        /// SecKeyCreateRandomKey's two halves (``SecItemImplementation/addAll(_:)``).
        case addAll
        /// A call on a keychain rather than its items (``KeeperKeychainCall``).
        case unlockKeychain, changeKeychainPassword, adoptKeychain, releaseKeychain, forgetKeychain, lockKeychain, keychainStatus
    }

    var operation: Operation
    var query: KeeperValue
    var changes: KeeperValue
    var wantsResult: Bool

    var bytes: [UInt8] {
        var writer = KeeperWire.Writer()
        writer.byte(Self.version)
        writer.byte(operation.rawValue)
        writer.value(query)
        writer.value(changes)
        writer.byte(wantsResult ? 1 : 0)
        return writer.bytes
    }

    /// Reads a request; a message of another version is `.unknownVersion`.
    static func read(_ bytes: [UInt8]) -> Result<KeeperCall, KeeperCallRefusal> {
        var reader = KeeperWire.Reader(bytes)
        do throws(KeeperValueError) {
            guard try reader.byte() == version else { return .failure(.unknownVersion) }
            guard let operation = Operation(rawValue: try reader.byte()) else { return .failure(.malformed) }
            let query = try reader.value()
            let changes = try reader.value()
            let wants = try reader.byte()
            guard wants <= 1, reader.isAtEnd else { return .failure(.malformed) }
            return .success(KeeperCall(operation: operation, query: query, changes: changes, wantsResult: wants == 1))
        } catch {
            return .failure(.malformed)
        }
    }
}

/// Why a keeper did not run a request.
enum KeeperCallRefusal: Error {
    case unknownVersion
    case malformed
}

/// The keeper's answer to a ``KeeperCall``.
struct KeeperAnswer: Equatable, Sendable {
    var status: OSStatus
    var result: KeeperValue

    /// The answer to a message of a version this keeper does not speak.
    static let unknownVersion = KeeperAnswer(status: errSecUnimplemented, result: .null)
    /// The answer to a message that is not a request.
    static let malformed = KeeperAnswer(status: errSecDecode, result: .null)

    var bytes: [UInt8] {
        var writer = KeeperWire.Writer()
        writer.byte(KeeperCall.version)
        writer.word(UInt32(bitPattern: status))
        writer.value(result)
        return writer.bytes
    }

    static func read(_ bytes: [UInt8]) throws(KeeperValueError) -> KeeperAnswer {
        var reader = KeeperWire.Reader(bytes)
        guard try reader.byte() == KeeperCall.version else { throw KeeperValue.malformed("an answer of another version") }
        let status = OSStatus(bitPattern: try reader.word())
        let result = try reader.value()
        guard reader.isAtEnd else { throw KeeperValue.malformed("bytes after the answer") }
        return KeeperAnswer(status: status, result: result)
    }
}
#endif
