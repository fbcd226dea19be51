#if Sync  // built only with the Sync trait (Package.swift)
import Foundation
import PostgresNIO

/// A sync store's address: `postgresql://USER[:PASSWORD]@HOST[:PORT]/DATABASE`, or a Unix
/// socket folder as `postgresql://USER@/DATABASE?host=/run/postgresql` (libpq's forms).
/// `PGPASSWORD` supplies a password the URL leaves out.
///
/// TLS follows libpq's `sslmode` parameter (``TLSMode``), with a safer default than libpq's: a
/// server on another machine is reached with `verify-full` unless the URL names a weaker mode
/// (the certificate must chain to the system's roots, or to the CA certificates in the PEM file
/// named by `sslrootcert=PATH`, and name the host); a server on this machine's loopback
/// addresses with `prefer`, as libpq does. Unix sockets never use TLS. The records are sealed
/// either way; TLS hides the traffic's shape and the database credentials, and `verify-full`
/// keeps a machine in the middle from posing as the server.
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
            tlsMode = SyncServerURL.defaultTLSMode(host: host ?? "")
        }
    }

    /// `verify-full` for a server on another machine, `prefer` for one on this machine's loopback.
    static func defaultTLSMode(host: String) -> TLSMode {
        isLoopback(host) ? .prefer : .verifyFull
    }

    static func isLoopback(_ host: String) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if bare.lowercased() == "localhost" || bare == "::1" { return true }
        let octets = bare.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }

    /// How the connection is protected, for `sync status`.
    var transportDescription: String {
        guard let tlsMode else { return "Unix socket \(socketFolder ?? "")" }
        switch tlsMode {
        case .disable: return "sslmode=disable: no TLS"
        case .prefer: return "sslmode=prefer: TLS if the server offers it, certificate not checked"
        case .require: return rootCertificatePath == nil ? "sslmode=require: TLS, certificate not checked"
                                                         : "sslmode=require: TLS, certificate checked against sslrootcert"
        case .verifyCA: return "sslmode=verify-ca: TLS, certificate checked, host name not checked"
        case .verifyFull: return "sslmode=verify-full: TLS, certificate and host name checked"
        }
    }

    /// The URL without its password, for status output.
    var redacted: String {
        var text = "postgresql://\(user)@\(host ?? "")"
        if host != nil && port != 5432 { text += ":\(port)" }
        text += "/\(database)"
        var parameters: [String] = []
        if let socketFolder { parameters.append("host=\(socketFolder)") }
        if let tlsMode { parameters.append("sslmode=\(tlsMode.rawValue)") }
        if let rootCertificatePath { parameters.append("sslrootcert=\(rootCertificatePath)") }
        if !parameters.isEmpty { text += "?" + parameters.joined(separator: "&") }
        return text
    }
}
#endif
