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

    /// An identity made from an application identifier (`TEAMID.bundle.id`), its
    /// `keychain-access-groups` and its app groups (`com.apple.security.application-groups`),
    /// ordered as Apple orders them (`SecTaskCopyAccessGroups` in Security's
    /// `server_entitlement_helpers.c`; the `kSecAttrAccessGroup` documentation lists the same
    /// order): the keychain access groups first, then the application identifier, then the app
    /// groups. The first of them is the default of adds, so an app group is the default only of a
    /// process that has nothing else.
    package init(applicationIdentifier: String?, keychainAccessGroups: [String] = [], applicationGroups: [String] = []) {
        var groups: [String] = []
        for group in keychainAccessGroups + [applicationIdentifier].compactMap({ $0 }) + applicationGroups
        where !groups.contains(group) {
            groups.append(group)
        }
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
    /// - `SWIFT_KEYCHAIN_ENTITLEMENTS`: a property list with `keychain-access-groups`,
    ///   `application-identifier` and `com.apple.security.application-groups`, as an app's
    ///   entitlements file has them (its access groups come before those of
    ///   `SWIFT_KEYCHAIN_ACCESS_GROUPS`, its app groups after the application identifier).
    /// With none of these set, ``unconfigured``.
    package static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws(KeychainStoreError) -> ClientIdentity {
        var groups: [String] = []
        var applicationID: String?
        var applicationGroups: [String] = []
        if let path = environment["SWIFT_KEYCHAIN_ENTITLEMENTS"], !path.isEmpty {
            let entitlements = try readEntitlements(path)
            groups += entitlements.groups
            applicationID = entitlements.applicationID
            applicationGroups = entitlements.applicationGroups
        }
        if let list = environment["SWIFT_KEYCHAIN_ACCESS_GROUPS"] {
            groups += list.split(separator: ",").map { PlainText.trimmingSpaces($0) }.filter { !$0.isEmpty }
        }
        if let id = environment["SWIFT_KEYCHAIN_APPLICATION_ID"], !id.isEmpty { applicationID = id }
        if groups.isEmpty && applicationID == nil && applicationGroups.isEmpty { return .unconfigured }
        return ClientIdentity(applicationIdentifier: applicationID, keychainAccessGroups: groups, applicationGroups: applicationGroups)
    }

    private static func readEntitlements(_ path: String) throws(KeychainStoreError) -> Entitlements {
        guard let data = FileManager.default.contents(atPath: path),
              let entitlements = try? PropertyListDecoder().decode(Entitlements.self, from: data) else {
            throw .parameter("the entitlements file '\(path)' is not a readable property list")
        }
        return entitlements
    }

    /// The keys of an entitlements property list the keychain reads; a value of another type
    /// counts as absent, and other keys are ignored.
    private struct Entitlements: Decodable {
        var groups: [String]
        var applicationID: String?
        var applicationGroups: [String]

        enum CodingKeys: String, CodingKey {
            case groups = "keychain-access-groups"
            case applicationID = "application-identifier"
            /// macOS's spelling of the application identifier, read when the plain one is absent
            /// (`SecTaskCopyApplicationIdentifier` in `server_entitlement_helpers.c`).
            case appleApplicationID = "com.apple.application-identifier"
            case applicationGroups = "com.apple.security.application-groups"
        }

        init(from decoder: any Decoder) throws {
            let keys = try decoder.container(keyedBy: CodingKeys.self)
            groups = (try? keys.decodeIfPresent([String].self, forKey: .groups)) ?? []
            applicationID = (try? keys.decodeIfPresent(String.self, forKey: .applicationID))
                ?? (try? keys.decodeIfPresent(String.self, forKey: .appleApplicationID))
            applicationGroups = (try? keys.decodeIfPresent([String].self, forKey: .applicationGroups)) ?? []
        }
    }

    /// The group an add without `agrp` goes to.
    var defaultGroup: String { accessGroups.first ?? ClientIdentity.sharedGroup }

    func canRead(_ group: String) -> Bool { seesAllGroups || accessGroups.contains(group) }

    func canWrite(_ group: String) -> Bool {
        group != ClientIdentity.tokenGroup && (seesAllGroups || accessGroups.contains(group))
    }
}
