import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A user other than root that every Debian system has, as a client runs as it.
enum OtherUser {
    static let setpriv = "/usr/bin/setpriv"
    static let ids: (uid: UInt32, gid: UInt32)? = getpwnam("nobody").map { ($0.pointee.pw_uid, $0.pointee.pw_gid) }
    static let canRun = geteuid() == 0 && FileManager.default.isExecutableFile(atPath: setpriv) && ids != nil

    /// `program` with `arguments`, run as that user from `/` (the sandbox's home is root's).
    static func command(_ program: String, _ arguments: [String]) throws -> (String, [String]) {
        let ids = try #require(ids, "there is no user nobody")
        return (setpriv, ["--reuid=\(ids.uid)", "--regid=\(ids.gid)", "--clear-groups", "/usr/bin/env", "--chdir=/", program] + arguments)
    }
}

/// keychaind serves only programs of the user it runs as, whatever the bus lets connect: here a
/// bus that lets every user in, keychaind on it as root, and clients run as `nobody`.
@Suite(.enabled(if: OtherUser.canRun || ProcessInfo.processInfo.environment["CI"] == "true",
                "needs root and setpriv, to run a client as another user"))
struct OtherUserTests {
    /// The attack: another user's program searches for an item and reads its secret. Each call is
    /// refused with `AccessDenied`, and keychaind keeps serving its own user.
    @Test func callsFromAnotherUserAreRefused() throws {
        try #require(OtherUser.canRun, "not root, or setpriv is missing")
        let sandbox = try DaemonSandbox(busOpenToEveryUser: true)
        #expect(try sandbox.secretTool(["store", "--label", "Mine", "service", "vault", "username", "me"], stdin: "root's secret").status == 0)

        let (setpriv, search) = try OtherUser.command("/usr/bin/dbus-send", [
            "--print-reply", "--dest=org.freedesktop.secrets", "/org/freedesktop/secrets",
            "org.freedesktop.Secret.Service.SearchItems", "dict:string:string:service,vault",
        ])
        let searched = try sandbox.run(setpriv, search)
        #expect(searched.status != 0, "\(searched)")
        #expect(searched.stderr.contains("org.freedesktop.DBus.Error.AccessDenied"), "\(searched)")
        #expect(!searched.stdout.contains("/org/freedesktop/secrets/collection/login/"), "\(searched)")

        // What a real client would do with it: libsecret's Python counterpart reads the secret.
        let script = """
            import secretstorage
            bus = secretstorage.dbus_init()
            try:
                items = secretstorage.get_default_collection(bus).search_items({"service": "vault"})
                print("served", [item.get_secret().decode() for item in items])
            except Exception as error:
                print("refused", error)
            """
        let (_, python) = try OtherUser.command("/usr/bin/python3", ["-c", script])
        let read = try sandbox.run(setpriv, python)
        #expect(read.stdout.hasPrefix("refused") && read.stdout.contains("AccessDenied"), "\(read)\n\(sandbox.log)")
        #expect(!read.stdout.contains("root's secret"))

        // The user keychaind runs as is served on the same bus.
        let lookup = try sandbox.secretTool(["lookup", "service", "vault", "username", "me"])
        #expect(lookup.stdout == "root's secret", "\(lookup)\n\(sandbox.log)")
    }
}
