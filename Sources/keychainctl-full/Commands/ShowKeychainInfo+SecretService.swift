import Foundation

/// Who serves the freedesktop Secret Service (`org.freedesktop.secrets`) on the session bus, as
/// show-keychain-info reports it: keychaind, gnome-keyring or another provider, as the program
/// and process the bus names (GetNameOwner, then GetConnectionUnixProcessID, then that process's
/// executable), or that nobody does, or that there is no session bus to ask.
///
/// The bus is asked with `dbus-send` (Debian's dbus-bin), run for the two calls: keychainctl
/// links no D-Bus library. Every answer is a line of text; none makes the command fail.
enum SecretServiceProvider {
    static let busName = "org.freedesktop.secrets"
    /// How long each call waits for the bus.
    static let replyTimeoutMilliseconds = 2000

    /// The text after `secrets:` in show-keychain-info.
    static func describe(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        guard let address = sessionBusAddress(environment) else {
            return "no session bus (DBUS_SESSION_BUS_ADDRESS is not set and $XDG_RUNTIME_DIR/bus does not exist)"
        }
        let tool = ExternalTool(name: "dbus-send")
        guard (try? tool.executable(context: "", package: "")) != nil else {
            return "unknown: dbus-send, which asks the session bus, is not installed (Debian: apt-get install dbus-bin)"
        }
        let owner: String
        switch ask(tool, "GetNameOwner", busName, address: address) {
        case .success(let reply):
            guard let name = value(after: "string ", in: reply) else { return "unknown: the bus answered GetNameOwner unexpectedly" }
            owner = name
        case .failure(let error) where error.text.contains("NameHasNoOwner"):
            return "nobody serves \(busName) on the session bus (start keychaind, or let the bus start it on first use)"
        case .failure(let error):
            return "no session bus answered at \(shown(address))\(ExternalTool.summary(error.text))"
        }
        guard case .success(let reply) = ask(tool, "GetConnectionUnixProcessID", owner, address: address),
              let number = value(after: "uint32 ", in: reply), let processID = Int32(number) else {
            return "the bus peer \(shown(owner)) serves \(busName) on the session bus"
        }
        let program = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(processID)/exe")).map(shown)
        return "\(program ?? "a program keychainctl cannot read") (process \(processID)) serves \(busName) on the session bus"
    }

    /// The session bus's address as libdbus finds it, without ever autolaunching a bus.
    static func sessionBusAddress(_ environment: [String: String]) -> String? {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return address }
        guard let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty,
              FileManager.default.fileExists(atPath: runtime + "/bus") else { return nil }
        return "unix:path=\(runtime)/bus"
    }

    private struct Failure: Error { let text: String }

    /// One call to the bus itself with one string argument; its printed reply, or its error.
    private static func ask(_ tool: ExternalTool, _ member: String, _ argument: String, address: String) -> Result<String, Failure> {
        let arguments = ["--bus=\(address)", "--print-reply", "--reply-timeout=\(replyTimeoutMilliseconds)",
                         "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.\(member)", "string:\(argument)"]
        guard let output = try? tool.run(arguments, context: "", package: "") else { return .failure(Failure(text: "dbus-send could not be started")) }
        guard output.status == 0 else { return .failure(Failure(text: output.stderr)) }
        return .success(String(decoding: output.stdout, as: UTF8.self))
    }

    /// The value dbus-send printed after `prefix` (`string ":1.4"`, `uint32 1234`), unquoted.
    private static func value(after prefix: String, in reply: String) -> String? {
        for line in reply.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix(prefix) else { continue }
            let value = trimmed.dropFirst(prefix.count)
            return value.hasPrefix("\"") && value.hasSuffix("\"") && value.count >= 2 ? String(value.dropFirst().dropLast()) : String(value)
        }
        return nil
    }

    /// Text from elsewhere (a path, an address) as a terminal line shows it: control and format
    /// characters become U+FFFD, so that none can rewrite what the terminal shows.
    private static func shown(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map {
            switch $0.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator: "\u{FFFD}"
            default: $0
            }
        }))
    }
}
