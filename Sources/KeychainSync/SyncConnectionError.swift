#if Sync  // built only with the Sync trait (Package.swift)
import NIOCore
import PostgresNIO

/// Why the sync store could not be reached or stopped answering, in words a user can act on.
/// PostgresNIO's own errors describe themselves only as "PSQLError" (to keep query text out of
/// logs); this names the cause without any query, parameter or secret.
package enum SyncConnectionError: Error, Sendable, CustomStringConvertible {
    /// TLS could not be set up, or the server's certificate was refused.
    case tls(String)
    /// The server could not be reached, or the connection broke.
    case unreachable(String)
    /// The server did not answer within the time allowed.
    case timedOut(String)
    /// The server answered with an error.
    case refused(String)

    package var description: String {
        switch self {
        case .tls(let reason): return "TLS to the sync database failed: \(reason)"
        case .unreachable(let reason): return "the sync database cannot be reached: \(reason)"
        case .timedOut(let reason): return "the sync database did not answer: \(reason)"
        case .refused(let reason): return "the sync database refused a request: \(reason)"
        }
    }

    /// The clearer error for what PostgresNIO threw while connecting, or the error itself.
    static func explaining(_ error: any Error, url: SyncServerURL) -> any Error {
        guard let psql = error as? PSQLError else { return error }
        let underlying = psql.underlying.map(words(for:)) ?? ""
        switch psql.code {
        case .sslUnsupported:
            return SyncConnectionError.tls("the server at \(url.redacted) does not offer TLS (sslmode=\(url.tlsMode?.rawValue ?? "disable"))")
        case .failedToAddSSLHandler, .receivedUnencryptedDataAfterSSLRequest:
            return SyncConnectionError.tls("the handshake could not start: \(underlying)")
        case .connectionError, .uncleanShutdown, .serverClosedConnection, .clientClosedConnection:
            if let reason = tlsReason(underlying) { return SyncConnectionError.tls(reason) }
            if psql.underlying is ChannelError, underlying.contains("connectTimeout") {
                return SyncConnectionError.timedOut("no connection within \(SyncServerURL.connectTimeout.nanoseconds / 1_000_000_000) s")
            }
            return SyncConnectionError.unreachable(underlying.isEmpty ? "the connection was closed" : underlying)
        case .server:
            // The server's own sentence (its detail, which may quote values, is left out).
            let message = psql.serverInfo?[.message] ?? "no message"
            let state = psql.serverInfo?[.sqlState] ?? "?"
            if state.hasPrefix("57P") || state.hasPrefix("08") {
                return SyncConnectionError.unreachable("the server ended the connection: \(message) (SQLSTATE \(state))")
            }
            return SyncConnectionError.refused("\(message) (SQLSTATE \(state))")
        default:
            // The code names the kind of failure and nothing of the query.
            return SyncConnectionError.refused("PostgresNIO reports \(psql.code)")
        }
    }

    /// What an error underneath a PostgresNIO error says: its code and the server's message for
    /// a nested PostgresNIO error (whose own description is a placeholder), else its description.
    static func words(for error: any Error) -> String {
        guard let psql = error as? PSQLError else { return String(describing: error) }
        var text = "\(psql.code)"
        if let message = psql.serverInfo?[.message] { text += ": \(message)" }
        if let underlying = psql.underlying { text += " (\(words(for: underlying)))" }
        return text
    }

    /// A sentence for a certificate or handshake failure found in an underlying error's text.
    static func tlsReason(_ text: String) -> String? {
        if text.contains("failedToValidateHostname") {
            return "the server's certificate does not name the host connected to (sslmode=verify-full): \(text)"
        }
        if text.contains("CERTIFICATE_VERIFY_FAILED") || text.contains("certificate verify failed") {
            return "the server's certificate is not signed by a trusted CA (see sslrootcert): \(text)"
        }
        if text.contains("handshakeFailed") || text.contains("NIOSSL") || text.contains("SSL_") {
            return "the handshake failed: \(text)"
        }
        return nil
    }
}
#endif
