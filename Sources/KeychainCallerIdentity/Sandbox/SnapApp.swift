/// A snap, from what snapd leaves on its processes.
///
/// snapd starts every app of a snap in a cgroup named `snap.<instance>.<app>...` and, where
/// AppArmor is loaded, under the AppArmor profile `snap.<instance>.<app>`. The label comes from
/// the kernel and cannot be changed by the process; the cgroup name is as trustworthy as the
/// tree it sits in (see ``SystemdUnit``).
package struct SnapApp: Sendable, Equatable {
    package enum Evidence: Sendable, Equatable {
        /// The AppArmor label the kernel gives the process: not forgeable by it.
        case securityLabel
        /// A cgroup under `system.slice` (a snap's service), placed there by root.
        case systemCgroup
        /// A cgroup in the user's own delegated tree: any process of the user can claim it.
        case userCgroup
    }

    /// The snap's instance name (`firefox`, or `firefox_beta` for a parallel install).
    package let instanceName: String
    package let evidence: Evidence

    /// snapd's instance names: a snap name (lower-case letters, digits and dashes, with a
    /// letter) and an optional `_key` of up to ten lower-case letters and digits.
    static func isValidInstanceName<Name: StringProtocol>(_ name: Name) -> Bool {
        let parts = name.split(separator: "_", maxSplits: 1, omittingEmptySubsequences: false)
        guard let snap = parts.first, (1...40).contains(snap.count),
              snap.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") }),
              snap.contains(where: { $0.isLetter }), !snap.hasPrefix("-"), !snap.hasSuffix("-") else { return false }
        guard parts.count == 2 else { return true }
        return (1...10).contains(parts[1].count) && parts[1].allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber) }
    }

    /// The instance name in an AppArmor label `snap.<instance>.<app>[ (mode)]`; nil for any other label.
    static func instance(inSecurityLabel label: String) -> String? {
        let profile = label.split(separator: " ", maxSplits: 1).first ?? ""
        let parts = profile.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 3, parts[0] == "snap", isValidInstanceName(parts[1]) else { return nil }
        return String(parts[1])
    }
}
