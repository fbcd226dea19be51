import Foundation
import PostgresNIO

/// A sync store's address: `postgresql://USER[:PASSWORD]@HOST[:PORT]/DATABASE`, or a Unix
/// socket folder as `postgresql://USER@/DATABASE?host=/run/postgresql` (libpq's forms).
/// `PGPASSWORD` supplies a password the URL leaves out. TLS is not negotiated: use a socket,
/// loopback or a tunnel (the records are sealed either way; TLS would hide who syncs when).
struct SyncServerURL: Sendable, Equatable {
    var user: String
    var password: String?
    /// A host name, or nil with `socketFolder` set.
    var host: String?
    var port: Int
    var socketFolder: String?
    var database: String

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
    }

    /// The URL without its password, for status output.
    var redacted: String {
        var text = "postgresql://\(user)@\(host ?? "")"
        if host != nil && port != 5432 { text += ":\(port)" }
        text += "/\(database)"
        if let socketFolder { text += "?host=\(socketFolder)" }
        return text
    }

    var configuration: PostgresConnection.Configuration {
        if let socketFolder {
            return .init(unixSocketPath: socketFolder + "/.s.PGSQL.\(port)", username: user, password: password, database: database)
        }
        return .init(host: host ?? "localhost", port: port, username: user, password: password, database: database, tls: .disable)
    }
}
