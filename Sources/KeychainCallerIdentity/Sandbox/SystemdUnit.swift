/// The systemd unit a process runs in, from its cgroup path (`/proc/PID/cgroup`).
///
/// How far it can be trusted depends on whose tree it sits in. Only root can place a process
/// under `system.slice`, so a system unit is the service it says. Everything under
/// `user@UID.service` is delegated to that user (systemd's cgroup delegation): any of the user's
/// processes can make a cgroup there with any name and move itself into it, so a user unit is
/// only what the process chose to call itself.
package struct SystemdUnit: Sendable, Equatable {
    package enum Manager: Sendable, Equatable {
        /// The system manager's tree, under `system.slice`: set by root.
        case system
        /// The tree of the user manager `user@UID.service`: the user can forge it.
        case user(UInt32)
    }

    /// The unit's name as systemd writes it (`nginx.service`, `app-gnome-org.gnome.Terminal-42.scope`).
    package let name: String
    package let manager: Manager

    /// For a user unit named as desktop environments name applications
    /// (`app-[<launcher>-]<ApplicationID>-<RANDOM>.scope`, `app-[<launcher>-]<ApplicationID>[@<RANDOM>].service`),
    /// the application id it claims; nil otherwise. Forgeable, as the unit is.
    package var claimedApplicationID: String? {
        guard case .user = manager else { return nil }
        return Self.applicationID(inUnitName: name)
    }

    /// True only for a system unit.
    package var isSetByRoot: Bool { manager == .system }
}

/// The cgroup path of a process, and what it says.
package struct CgroupPlacement: Sendable, Equatable {
    /// The process's path in the unified hierarchy (or, on a system without one, systemd's own
    /// named hierarchy), e.g. `/system.slice/nginx.service`.
    package let path: String

    /// The most a cgroup file is read (one line per hierarchy; paths are short).
    static let largestFile = 64 * 1024

    /// Picks the path from a `/proc/PID/cgroup` file: the `0::` line, or `name=systemd` where the
    /// unified one says only `/` (a hybrid system). Nil when there is neither, or the path is not
    /// UTF-8.
    static func parse(_ bytes: [UInt8]) -> CgroupPlacement? {
        var unified: String?
        var systemd: String?
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            // hierarchy-ID:controllers:path; the path itself may hold colons.
            let fields = line.split(separator: UInt8(ascii: ":"), maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3, let path = Text.validUTF8(fields[2]), path.hasPrefix("/") else { continue }
            if fields[0].elementsEqual("0".utf8) && fields[1].isEmpty { unified = path }
            if fields[1].elementsEqual("name=systemd".utf8) { systemd = path }
        }
        if let unified, unified != "/" { return CgroupPlacement(path: unified) }
        if let systemd { return CgroupPlacement(path: systemd) }
        return unified.map(CgroupPlacement.init)
    }

    private var components: [Substring] { path.split(separator: "/") }

    /// The unit, when the path is a system unit (`/system.slice/[x.slice/...]name.service|.scope`)
    /// or a user manager's unit (`/user.slice/user-UID.slice/user@UID.service/[x.slice/...]name.service|.scope`).
    package var unit: SystemdUnit? {
        let parts = components
        if parts.first == "system.slice" {
            return Self.firstUnit(in: parts.dropFirst()).map { SystemdUnit(name: $0, manager: .system) }
        }
        guard parts.first == "user.slice",
              let managerIndex = parts.firstIndex(where: { $0.hasPrefix("user@") && $0.hasSuffix(".service") }),
              let uid = UInt32(parts[managerIndex].dropFirst(5).dropLast(8)) else { return nil }
        return Self.firstUnit(in: parts[(managerIndex + 1)...]).map { SystemdUnit(name: $0, manager: .user(uid)) }
    }

    /// The first component after any slices, if it is a service or a scope. What lies below it
    /// (a delegated service's own sub-cgroups) belongs to that unit.
    private static func firstUnit(in parts: ArraySlice<Substring>) -> String? {
        guard let unit = parts.first(where: { !$0.hasSuffix(".slice") }),
              unit.hasSuffix(".service") || unit.hasSuffix(".scope") else { return nil }
        return String(unit)
    }

    /// A snap's instance name from a cgroup component `snap.<instance>.<app>...`, as snapd names
    /// the scopes and services it starts.
    package var snapInstance: String? {
        for part in components where part.hasPrefix("snap.") {
            let name = part.dropFirst(5).prefix { $0 != "." }
            if SnapApp.isValidInstanceName(name) && part.dropFirst(5 + name.count).hasPrefix(".") { return String(name) }
        }
        return nil
    }
}

extension SystemdUnit {
    /// The application id a desktop environment's unit name carries (systemd.io's
    /// DESKTOP_ENVIRONMENTS page), `\xHH` escapes decoded.
    static func applicationID(inUnitName name: String) -> String? {
        guard name.hasPrefix("app-") else { return nil }
        var rest = Substring(name.dropFirst(4))
        if rest.hasSuffix(".scope") || rest.hasSuffix(".slice") {
            rest = rest.dropLast(6)
            // The random part: the last dash-separated piece.
            guard let dash = rest.lastIndex(of: "-") else { return nil }
            rest = rest[..<dash]
        } else if rest.hasSuffix(".service") {
            rest = rest.dropLast(8)
            if let at = rest.lastIndex(of: "@") { rest = rest[..<at] }
        } else {
            return nil
        }
        // An optional launcher: letters and digits only, then a dash, with something after it.
        if let dash = rest.firstIndex(of: "-"), rest[..<dash].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }),
           rest.index(after: dash) < rest.endIndex {
            rest = rest[rest.index(after: dash)...]
        }
        let decoded = unescape(rest)
        return decoded.isEmpty ? nil : decoded
    }

    /// systemd's `\xHH` escapes decoded; anything else kept as it is.
    private static func unescape(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        let utf8 = Array(text.utf8)
        var index = 0
        while index < utf8.count {
            if utf8[index] == UInt8(ascii: "\\"), index + 3 < utf8.count, utf8[index + 1] == UInt8(ascii: "x"),
               let value = UInt8(String(decoding: utf8[(index + 2)...(index + 3)], as: UTF8.self), radix: 16) {
                bytes.append(value)
                index += 4
            } else {
                bytes.append(utf8[index])
                index += 1
            }
        }
        return Text.validUTF8(bytes) ?? String(text)
    }
}
