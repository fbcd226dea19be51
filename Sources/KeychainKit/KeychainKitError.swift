public import Foundation

/// A mistake the wrapper caught before or after talking to the keychain: a server that is not a
/// URL, a value that cannot be encoded, stored bytes that are not the type asked for.
///
/// The keychain's own failures are ``KeychainError``. Descriptions name the key and the type but
/// never the value: neither the secret nor the bytes that failed to decode.
///
/// ```swift
/// do {
///     let account = try keychain.get("alice", as: Account.self)
/// } catch KeychainKitError.notDecodable(let key, let type, _) {
///     print("\(key) does not hold a \(type)")
/// }
/// ```
public enum KeychainKitError: Error, Sendable, Hashable {
    /// The server given to `Keychain(server:…)` is not a URL with a scheme and a host.
    /// KeychainAccess silently used the empty server here, so that every such keychain shared
    /// one set of items; this library refuses instead.
    case invalidServer(reason: String)
    /// The value could not be encoded for storage under `key`.
    case notEncodable(key: String, type: String, reason: String)
    /// The data stored under `key` is not a `type` (not UTF-8 for a string, or not what the
    /// decoder expects for a Codable type).
    case notDecodable(key: String, type: String, reason: String)
    /// The keychain answered with a result of an unexpected shape (a bug in the keychain, never
    /// expected from a conforming implementation).
    case unexpectedResult(operation: String)
}

extension KeychainKitError: CustomStringConvertible, LocalizedError {
    /// What went wrong and what to do, without any stored value.
    public var description: String {
        switch self {
        case .invalidServer(let reason):
            return "The server is not a URL with a scheme and a host (\(reason)). "
                + "Write it in full, for example https://www.example.com; an empty server would let unrelated keychains overwrite each other."
        case .notEncodable(let key, let type, let reason):
            return "The \(type) value for key \"\(key)\" could not be encoded (\(reason)). Nothing was stored."
        case .notDecodable(let key, let type, let reason):
            return "The data stored under key \"\(key)\" is not a \(type) (\(reason)). "
                + "Read it with the type it was stored as, or store it again."
        case .unexpectedResult(let operation):
            return "The keychain returned a result of an unexpected shape for \(operation). Please report this."
        }
    }

    /// The same text as ``description``.
    public var errorDescription: String? { description }
}

extension KeychainKitError {
    /// A reason for an encoding or decoding failure that names the place in the value, never its
    /// content. Decoder messages can quote the offending bytes (a character of the secret), so
    /// only the kind of failure and the coding path are kept.
    static func reason(for error: any Error) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            codingPath.isEmpty ? "at the top level" : "at " + codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case let error as DecodingError:
            switch error {
            case .typeMismatch(let type, let context): return "expected \(type) \(path(context.codingPath))"
            case .valueNotFound(let type, let context): return "no \(type) value \(path(context.codingPath))"
            case .keyNotFound(let key, let context): return "no key \"\(key.stringValue)\" \(path(context.codingPath))"
            case .dataCorrupted(let context): return "the data is not in the decoder's format \(path(context.codingPath))"
            @unknown default: return "the decoder failed"
            }
        case let error as EncodingError:
            switch error {
            case .invalidValue(_, let context): return "a value cannot be encoded \(path(context.codingPath))"
            @unknown default: return "the encoder failed"
            }
        default:
            return "\(type(of: error))"
        }
    }
}
