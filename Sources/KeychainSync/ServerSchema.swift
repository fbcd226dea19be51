#if Sync  // built only with the Sync trait (Package.swift)
import Logging
import PostgresNIO

/// The sync store's tables (docs/sync.md, "The server"), created and upgraded by versioned
/// migrations. Each migration runs in one transaction under an advisory lock, so two devices
/// joining at once do not both create the tables; a database with a newer schema is refused.
package enum ServerSchema {
    /// The newest schema this client writes.
    static let version: Int32 = 3

    /// Migrations by the version they lead to; each is a list of statements run in order.
    static let migrations: [Int32: [String]] = [
        1: [
            """
            CREATE TABLE sync_groups (
                group_id text PRIMARY KEY,
                epoch bigint NOT NULL,
                revision bigint NOT NULL,
                created_at timestamptz NOT NULL DEFAULT now())
            """,
            """
            CREATE TABLE sync_devices (
                group_id text NOT NULL REFERENCES sync_groups,
                device_id text NOT NULL,
                public_key bytea NOT NULL,
                name text NOT NULL,
                status text NOT NULL CHECK (status IN ('pending', 'approved', 'removed')),
                last_seen timestamptz,
                PRIMARY KEY (group_id, device_id))
            """,
            """
            CREATE TABLE sync_group_keys (
                group_id text NOT NULL,
                device_id text NOT NULL,
                epoch bigint NOT NULL,
                encapsulated_key bytea NOT NULL,
                ciphertext bytea NOT NULL,
                PRIMARY KEY (group_id, device_id, epoch),
                FOREIGN KEY (group_id, device_id) REFERENCES sync_devices)
            """,
            """
            CREATE TABLE sync_records (
                group_id text NOT NULL REFERENCES sync_groups,
                record_id bytea NOT NULL,
                revision bigint NOT NULL,
                epoch bigint NOT NULL,
                ciphertext bytea NOT NULL,
                updated_at timestamptz NOT NULL DEFAULT now(),
                PRIMARY KEY (group_id, record_id))
            """,
            "CREATE INDEX sync_records_by_revision ON sync_records (group_id, revision)",
            // One notification per transaction and group: the payload is the same for every row,
            // and PostgreSQL folds identical notifications of one transaction into one.
            """
            CREATE FUNCTION sync_records_notify() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                PERFORM pg_notify('keychain_sync_' || NEW.group_id, '');
                RETURN NULL;
            END $$
            """,
            """
            CREATE TRIGGER sync_records_notify AFTER INSERT OR UPDATE ON sync_records
                FOR EACH ROW EXECUTE FUNCTION sync_records_notify()
            """,
        ],
        // Tombstone collection (docs/sync.md, "Deletes and their collection"): which records are
        // deletes, and how far each device has pulled.
        2: [
            "ALTER TABLE sync_records ADD COLUMN tombstone boolean NOT NULL DEFAULT false",
            "ALTER TABLE sync_devices ADD COLUMN pulled_revision bigint NOT NULL DEFAULT 0",
            "CREATE INDEX sync_records_tombstones ON sync_records (group_id, revision) WHERE tombstone",
        ],
        // Trust that does not rest on the server (docs/sync.md, "Trust"): the roster's signed
        // statements, signed key shares in place of the unsigned wrapped keys, the sealed
        // manifest, and each device's signing key beside its agreement key.
        3: [
            """
            CREATE TABLE sync_roster (
                group_id text NOT NULL REFERENCES sync_groups,
                seq bigint NOT NULL,
                statement bytea NOT NULL,
                PRIMARY KEY (group_id, seq))
            """,
            """
            CREATE TABLE sync_key_shares (
                group_id text NOT NULL REFERENCES sync_groups,
                recipient text NOT NULL,
                epoch bigint NOT NULL,
                share bytea NOT NULL,
                PRIMARY KEY (group_id, recipient, epoch))
            """,
            """
            CREATE TABLE sync_manifests (
                group_id text PRIMARY KEY REFERENCES sync_groups,
                version bigint NOT NULL,
                epoch bigint NOT NULL,
                body bytea NOT NULL)
            """,
            "ALTER TABLE sync_devices ADD COLUMN signing_key bytea",
            "DROP TABLE sync_group_keys",
            // Where each device connects as a role of its own (administratorSQL), it may change
            // only the device rows it wrote; the table's owner, and a role shared by every
            // device, are not limited by this.
            "ALTER TABLE sync_devices ADD COLUMN db_role name NOT NULL DEFAULT current_user",
            "ALTER TABLE sync_devices ENABLE ROW LEVEL SECURITY",
            "CREATE POLICY sync_devices_read ON sync_devices FOR SELECT USING (true)",
            "CREATE POLICY sync_devices_insert ON sync_devices FOR INSERT WITH CHECK (db_role = current_user)",
            "CREATE POLICY sync_devices_update ON sync_devices FOR UPDATE USING (db_role = current_user) WITH CHECK (db_role = current_user)",
            "CREATE POLICY sync_devices_delete ON sync_devices FOR DELETE USING (db_role = current_user)",
        ],
    ]

    /// What each device's role may do, table by table, where devices connect as roles of their
    /// own: the roster and the key shares only grow (no device can rewrite or drop a decision),
    /// device rows are limited to their writer by the policies above, and records are written,
    /// re-sealed and collected by every member.
    static let devicePrivileges: [(table: String, privileges: String)] = [
        ("sync_schema_version", "SELECT"),
        ("sync_groups", "SELECT, INSERT, UPDATE"),
        ("sync_devices", "SELECT, INSERT, UPDATE"),
        ("sync_roster", "SELECT, INSERT"),
        ("sync_key_shares", "SELECT, INSERT"),
        ("sync_manifests", "SELECT, INSERT, UPDATE"),
        ("sync_records", "SELECT, INSERT, UPDATE, DELETE"),
    ]

    /// The SQL an administrator runs once, in the database the devices will use, so that each
    /// device connects as a role of its own with only the privileges it needs: an owner role
    /// that holds the tables (no device connects as it), a group role with the devices'
    /// privileges, and one login role per name in `devices`.
    package static func administratorSQL(owner: String, deviceGroup: String, devices: [String]) -> String {
        var lines = [
            "-- swift-keychain sync: each device connects as a database role of its own (docs/sync.md, \"The server\").",
            "-- Run once as an administrator, connected to the database the devices will use: psql -d DATABASE -f FILE",
            "BEGIN;",
            "CREATE ROLE \(owner) NOLOGIN;",
            "CREATE ROLE \(deviceGroup) NOLOGIN;",
            "GRANT USAGE, CREATE ON SCHEMA public TO \(owner);",
            "GRANT USAGE ON SCHEMA public TO \(deviceGroup);",
            "SET ROLE \(owner);",
            "CREATE TABLE sync_schema_version (version integer NOT NULL);",
            "INSERT INTO sync_schema_version (version) VALUES (\(version));",
        ]
        for next in 1...version {
            lines += (migrations[next] ?? []).map { $0 + ";" }
        }
        lines += devicePrivileges.map { "GRANT \($0.privileges) ON \($0.table) TO \(deviceGroup);" }
        lines.append("RESET ROLE;")
        lines.append("-- One login role per device; give each a password (ALTER ROLE name PASSWORD '...') or a pg_hba.conf rule,")
        lines.append("-- and name it in that device's URL: postgresql://ROLE@HOST/DATABASE")
        lines += devices.map { "CREATE ROLE \($0) LOGIN IN ROLE \(deviceGroup);" }
        lines.append("COMMIT;")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Whether `name` can stand unquoted in SQL as a role name: lowercase letters, digits and `_`, not starting with a digit.
    package static func isPlainRoleName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first), name.count <= 63 else { return false }
        return name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }

    /// Brings the database to ``version``.
    static func migrate(_ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query("BEGIN", logger: logger)
        do {
            // Any fixed number: it only has to be the same for every client of this schema.
            try await connection.query("SELECT pg_advisory_xact_lock(7273616775)", logger: logger)
            // Looked up first: a device's own role (administratorSQL) may not create tables.
            var exists = false
            for try await found in try await connection.query("SELECT to_regclass('sync_schema_version') IS NOT NULL", logger: logger)
                .decode(Bool.self) {
                exists = found
            }
            if !exists {
                try await connection.query("CREATE TABLE sync_schema_version (version integer NOT NULL)", logger: logger)
            }
            var current: Int32?
            for try await value in try await connection.query("SELECT version FROM sync_schema_version", logger: logger).decode(Int32.self) {
                current = value
            }
            if current == nil {
                try await connection.query("INSERT INTO sync_schema_version (version) VALUES (0)", logger: logger)
            }
            let start = current ?? 0
            guard start <= version else { throw SyncError.newerServerSchema(start) }
            for next in (start + 1)..<(version + 1) {
                for statement in migrations[next] ?? [] {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query("UPDATE sync_schema_version SET version = \(next)", logger: logger)
            }
            try await connection.query("COMMIT", logger: logger)
        } catch {
            // A query on a closed connection never returns (ConnectionGuard); the server rolls back anyway.
            if !connection.isClosed { _ = try? await connection.query("ROLLBACK", logger: logger) }
            throw error
        }
    }

    /// The notification channel of a group (group ids are lowercase hex, so the name needs no quoting).
    static func channel(groupID: String) -> String { "keychain_sync_" + groupID }
}
#endif
