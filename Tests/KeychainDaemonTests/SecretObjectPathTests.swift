import KeychainDaemon
import Testing

/// The daemon's object-path parser, which works on raw bytes for speed, against a plain reading
/// of the same rules with String's own operations, over the tree's paths and their near misses.
@Suite struct SecretObjectPathTests {
    /// The rules, read the slow and obvious way: a prefix, then one or two non-empty elements.
    static func expected(_ path: String) -> SecretObjectPath? {
        let root = "/org/freedesktop/secrets"
        if path == root { return .service }
        func elements(_ prefix: String) -> [String]? {
            guard path.hasPrefix(prefix) else { return nil }
            let parts = path.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty }) else { return nil }
            return parts
        }
        if let parts = elements(root + "/collection/") {
            return parts.count == 1 ? .collection(.name(parts[0])) : .item(.name(parts[0]), id: parts[1])
        }
        if let parts = elements(root + "/aliases/") {
            return parts.count == 1 ? .collection(.alias(parts[0])) : .item(.alias(parts[0]), id: parts[1])
        }
        if let parts = elements(root + "/session/"), parts.count == 1 { return .session(parts[0]) }
        if let parts = elements(root + "/prompt/"), parts.count == 1 { return .prompt(parts[0]) }
        return nil
    }

    static let paths: [String] = {
        let root = "/org/freedesktop/secrets"
        let heads = [root + "/collection/", root + "/aliases/", root + "/session/", root + "/prompt/",
                     root + "/collection", root + "/", root + "/items/", "/org/freedesktop/secret/collection/", "", "/"]
        let tails = ["", "login", "default", "login/", "login/0123456789abcdef0123456789abcdef", "login//x", "/login",
                     "login/a/b", "login/a/", "7", "a_b/c_d", "é/ü", "login/x\u{0}y", "//", "a/b/c/d"]
        return [root, root + "/", root + "x", "/org/freedesktop", ""] + heads.flatMap { head in tails.map { head + $0 } }
    }()

    @Test(arguments: paths) func parsesAsTheRulesSay(_ path: String) {
        #expect(SecretObjectPath(path) == Self.expected(path), "\(path.debugDescription)")
    }

    @Test func canonicalPathsParseBack() {
        let item = SecretObjectPath.itemPath(collection: "login", id: "00ff")
        #expect(SecretObjectPath(item) == .item(.name("login"), id: "00ff"))
        #expect(SecretObjectPath(SecretObjectPath.collectionPath("work")) == .collection(.name("work")))
        #expect(SecretObjectPath("/org/freedesktop/secrets/aliases/default/12") == .item(.alias("default"), id: "12"))
        #expect(SecretObjectPath("/org/freedesktop/secrets/session/3") == .session("3"))
        #expect(SecretObjectPath("/org/freedesktop/secrets/session/3/4") == nil)
        #expect(SecretObjectPath("/org/freedesktop/secrets/collection/login/a/b") == nil)
    }
}
