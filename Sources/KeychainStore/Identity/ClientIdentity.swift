#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Who is calling: the keychain access groups a process holds, as an app's entitlements give it
/// on Apple platforms.
///
/// The first group is where items go when an add names none. Reads search every group held;
/// naming a group not held is `errSecMissingEntitlement`. Within one Unix user this is a
/// namespace, not a security boundary.
public struct ClientIdentity: Sendable, Hashable {
    /// The groups held, default first.
    package let accessGroups: [String]
    /// An administration tool (the CLI) sees and may write every group, like macOS's `security`.
    package let seesAllGroups: Bool

    /// The group shared by every process that configures nothing, so that zero-configuration use
    /// works across a user's tools.
    package static let sharedGroup = "swift-keychain.shared"

    /// Apple's token group: readable, never writable.
    static let tokenGroup = "com.apple.token"

    /// An identity holding `accessGroups` (default first).
    package init(accessGroups: [String]) {
        self.accessGroups = accessGroups
        self.seesAllGroups = false
    }

    /// An identity made from an application identifier (`TEAMID.bundle.id`) and its
    /// `keychain-access-groups`, ordered as Apple orders them: the keychain access groups first,
    /// then the application identifier.
    package init(applicationIdentifier: String?, keychainAccessGroups: [String] = []) {
        var groups = keychainAccessGroups
        if let applicationIdentifier, !groups.contains(applicationIdentifier) { groups.append(applicationIdentifier) }
        self.init(accessGroups: groups)
    }

    private init(administrator groups: [String]) {
        self.accessGroups = groups
        self.seesAllGroups = true
    }

    /// An identity that sees every group; adds without a group go to `defaultGroup`.
    package static func administrator(defaultGroup: String = sharedGroup) -> ClientIdentity {
        ClientIdentity(administrator: [defaultGroup])
    }

    /// The default for processes that configure nothing: the shared group.
    public static let unconfigured = ClientIdentity(accessGroups: [sharedGroup])

    /// The identity configured by the environment:
    /// - `SWIFT_KEYCHAIN_ACCESS_GROUPS`: comma-separated groups, default first;
    /// - `SWIFT_KEYCHAIN_APPLICATION_ID`: the application identifier, added after them;
    /// - `SWIFT_KEYCHAIN_ENTITLEMENTS`: a property list with `keychain-access-groups` and
    ///   `application-identifier`, as an app's entitlements file has them.
    /// With none of these set, ``unconfigured``.
    package static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws(KeychainStoreError) -> ClientIdentity {
        var groups: [String] = []
        var applicationID: String?
        if let path = environment["SWIFT_KEYCHAIN_ENTITLEMENTS"], !path.isEmpty {
            let entitlements = try readEntitlements(path)
            groups += entitlements.groups
            applicationID = entitlements.applicationID
        }
        if let list = environment["SWIFT_KEYCHAIN_ACCESS_GROUPS"] {
            groups += list.split(separator: ",").map { PlainText.trimmingSpaces($0) }.filter { !$0.isEmpty }
        }
        if let id = environment["SWIFT_KEYCHAIN_APPLICATION_ID"], !id.isEmpty { applicationID = id }
        if groups.isEmpty && applicationID == nil { return .unconfigured }
        return ClientIdentity(applicationIdentifier: applicationID, keychainAccessGroups: groups)
    }

    private static func readEntitlements(_ path: String) throws(KeychainStoreError) -> (groups: [String], applicationID: String?) {
        guard let data = FileManager.default.contents(atPath: path),
              let entitlements = try? PropertyListDecoder().decode(Entitlements.self, from: data) else {
            throw .parameter("the entitlements file '\(path)' is not a readable property list")
        }
        return (entitlements.groups, entitlements.applicationID)
    }

    /// The two keys of an entitlements property list the keychain reads; a value of another type
    /// counts as absent, and other keys are ignored.
    private struct Entitlements: Decodable {
        var groups: [String]
        var applicationID: String?

        enum CodingKeys: String, CodingKey {
            case groups = "keychain-access-groups"
            case applicationID = "application-identifier"
        }

        init(from decoder: any Decoder) throws {
            let keys = try decoder.container(keyedBy: CodingKeys.self)
            groups = (try? keys.decodeIfPresent([String].self, forKey: .groups)) ?? []
            applicationID = try? keys.decodeIfPresent(String.self, forKey: .applicationID)
        }
    }

    /// The group an add without `agrp` goes to.
    var defaultGroup: String { accessGroups.first ?? ClientIdentity.sharedGroup }

    func canRead(_ group: String) -> Bool { seesAllGroups || accessGroups.contains(group) }

    func canWrite(_ group: String) -> Bool {
        group != ClientIdentity.tokenGroup && (seesAllGroups || accessGroups.contains(group))
    }
}
