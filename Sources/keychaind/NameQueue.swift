import KeychainDaemon
import KeychainDBus

/// What keychaind says when `--replace` could only queue for the Secret Service's name.
///
/// The bus hands a name to the next in its queue when the owner leaves, and an owner that does
/// not allow replacement (gnome-keyring) keeps it until then; meanwhile every client's secrets
/// go to that owner. So the notice names the owner as the kernel knows it (the bus's
/// `GetNameOwner`, then the process behind that connection and its executable), and says how to
/// hand the session over for good.
enum NameQueue {
    /// The notice for `name`, which keychaind is queued for on `connection`.
    static func queuedNotice(for name: String, on connection: DBusConnection) -> String {
        let owner = (try? connection.owner(of: name)) ?? nil
        let processID = owner.flatMap { try? connection.processID(of: $0) }
        let who = processID.map(CallerProgram.named(processID:)) ?? owner.map { "the bus peer \($0)" } ?? "another provider"
        return "keychaind is queued for \(name) behind \(who), which owns it and does not allow replacement: "
            + "keychaind takes the name when that provider leaves the bus; until then clients' secrets go to it, not to the keychain. "
            + handOver(executable: processID.flatMap(CallerProgram.executable(ofProcess:)))
    }

    /// How to stop the owner for good, so that keychaind gets the name now and from the next
    /// login on (docs/secret-service.md, "On a desktop that runs gnome-keyring").
    static func handOver(executable: String?) -> String {
        guard let program = executable?.split(separator: "/").last, program.hasPrefix("gnome-keyring") else {
            return "To hand the session over, quit that program or turn off its Secret Service integration."
        }
        return "To hand the session over to keychaind: systemctl --user mask --now gnome-keyring-daemon.service gnome-keyring-daemon.socket, "
            + "and turn off its autostart with a copy of /etc/xdg/autostart/gnome-keyring-secrets.desktop in ~/.config/autostart "
            + "that has the line Hidden=true."
    }
}
