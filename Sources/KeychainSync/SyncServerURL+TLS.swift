#if Sync  // built only with the Sync trait (Package.swift)
import Foundation
import PostgresNIO

extension SyncServerURL {
    /// libpq's `sslmode` values that this client implements, with libpq's meanings.
    enum TLSMode: String, Sendable, CaseIterable {
        /// Plain TCP.
        case disable
        /// TLS when the server offers it, plain TCP otherwise; the certificate is not checked.
        case prefer
        /// TLS or no connection. The certificate is not checked, unless `sslrootcert` names a CA
        /// file, in which case it must chain to it (as libpq does when a root file exists).
        case require
        /// TLS, with a certificate that chains to a trusted root; any host name.
        case verifyCA = "verify-ca"
        /// TLS, with a certificate that chains to a trusted root and names the host connected to.
        case verifyFull = "verify-full"
    }

    /// How long establishing a connection (TCP, TLS, authentication) may take before it fails.
    static let connectTimeout: TimeAmount = .seconds(15)

    /// The connection settings PostgresNIO is given. Throws when the CA file cannot be read.
    func configuration() throws -> PostgresConnection.Configuration {
        var configuration: PostgresConnection.Configuration
        if let socketFolder {
            configuration = .init(unixSocketPath: socketFolder + "/.s.PGSQL.\(port)", username: user, password: password, database: database)
        } else {
            configuration = .init(host: host ?? "localhost", port: port, username: user, password: password, database: database,
                                  tls: try tls())
        }
        configuration.options.connectTimeout = SyncServerURL.connectTimeout
        return configuration
    }

    func tls() throws -> PostgresConnection.Configuration.TLS {
        guard let tlsMode, tlsMode != .disable else { return .disable }
        var settings = TLSConfiguration.makeClientConfiguration()
        switch tlsMode {
        case .disable, .prefer:
            settings.certificateVerification = .none
        case .require:
            settings.certificateVerification = rootCertificatePath == nil ? .none : .noHostnameVerification
        case .verifyCA:
            settings.certificateVerification = .noHostnameVerification
        case .verifyFull:
            settings.certificateVerification = .fullVerification
        }
        if let rootCertificatePath {
            guard FileManager.default.isReadableFile(atPath: rootCertificatePath) else {
                throw SyncConnectionError.tls("the CA file \(rootCertificatePath) (sslrootcert) cannot be read")
            }
            settings.trustRoots = .file(rootCertificatePath)
        }
        let context: NIOSSLContext
        do {
            context = try NIOSSLContext(configuration: settings)
        } catch {
            throw SyncConnectionError.tls("the TLS settings could not be used: \(error)")
        }
        return tlsMode == .prefer ? .prefer(context) : .require(context)
    }
}
#endif
