import Foundation
import PostgresNIO

/// A sync store's address: `postgresql://USER[:PASSWORD]@HOST[:PORT]/DATABASE`, or a Unix
/// socket folder as `postgresql://USER@/DATABASE?host=/run/postgresql` (libpq's forms).
/// `PGPASSWORD` supplies a password the URL leaves out.
///
/// TLS follows libpq's `sslmode` parameter (``TLSMode``): over TCP the default is `prefer`
/// (encrypt when the server offers it, without checking its certificate); `verify-full` checks
/// the certificate against the system's roots, or against the CA certificates in the PEM file
/// named by `sslrootcert=PATH`, and the host name against the certificate. Unix sockets never
/// use TLS. The records are sealed either way; TLS hides the traffic's shape and the
/// credentials, and `verify-full` keeps a man in the middle from posing as the server.
struct SyncServerURL: Sendable, Equatable {
    var user: String
    var password: String?
    /// A host name, or nil with `socketFolder` set.
    var host: String?
    var port: Int
    var socketFolder: String?
    var database: String
    /// How TLS is negotiated; nil on a Unix socket.
    var tlsMode: TLSMode?
    /// A PEM file of CA certificates that the server's certificate must chain to (`sslrootcert`).
    var rootCertificatePath: String?

    init(_ text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(SyncError) {
        guard let components = URLComponents(string: text), let scheme = components.scheme,
              scheme == "postgresql" || scheme == "postgres" else {
            throw .badURL("it must begin with postgresql://")
        }
        guard let user = components.user, !user.isEmpty else { throw .badURL("it names no user") }
        self.user = user
        password = components.password ?? environment["PGPASSWORD"]
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty else { throw .badURL("it names no database") }
        self.database = database
        port = components.port ?? 5432
        let hostQuery = components.queryItems?.first(where: { $0.name == "host" })?.value
        if let folder = hostQuery, folder.hasPrefix("/") {
            socketFolder = folder
            host = nil
        } else if let name = components.host, !name.isEmpty {
            host = name
            socketFolder = nil
        } else {
            throw .badURL("it names no host and no socket folder (?host=/path)")
        }
        let query = components.queryItems ?? []
        let modeText = query.first(where: { $0.name == "sslmode" })?.value
        rootCertificatePath = query.first(where: { $0.name == "sslrootcert" })?.value
        if socketFolder != nil {
            // libpq never uses TLS on a Unix socket; asking for a checked one there is a mistake
            // better refused than silently ignored.
            if let modeText, modeText != TLSMode.disable.rawValue && modeText != TLSMode.prefer.rawValue {
                throw .badURL("sslmode=\(modeText) cannot apply to a Unix socket")
            }
            tlsMode = nil
        } else if let modeText {
            guard let mode = TLSMode(rawValue: modeText) else {
                throw .badURL("sslmode must be one of \(TLSMode.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            tlsMode = mode
        } else {
            tlsMode = .prefer
        }
    }

    /// The URL without its password, for status output.
    var redacted: String {
        var text = "postgresql://\(user)@\(host ?? "")"
        if host != nil && port != 5432 { text += ":\(port)" }
        text += "/\(database)"
        var parameters: [String] = []
        if let socketFolder { parameters.append("host=\(socketFolder)") }
        if let tlsMode, tlsMode != .prefer { parameters.append("sslmode=\(tlsMode.rawValue)") }
        if let rootCertificatePath { parameters.append("sslrootcert=\(rootCertificatePath)") }
        if !parameters.isEmpty { text += "?" + parameters.joined(separator: "&") }
        return text
    }
}
