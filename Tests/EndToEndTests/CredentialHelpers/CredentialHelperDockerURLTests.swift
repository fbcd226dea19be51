import Foundation
import Testing

/// docker-credential-keychain reads a server URL as docker does (Go's net/url.Parse, through
/// docker-credential-helpers' registryurl.Parse), so the credential it answers with is the one
/// of the host docker will connect to. Text Go refuses, or would read another host from than
/// another parser, is refused; so is any user information, which Go accepts.
@Suite struct CredentialHelperDockerURLTests {
    /// Server URLs that must be refused, with a part of the reason. The first ones replay the
    /// attack: each names registry.example.com to a lenient parser.
    static let refused: [(url: String, reason: String)] = [
        // Go: "net/url: invalid userinfo"; Foundation read registry.example.com, WHATWG evil.example.
        (#"https://evil.example\@registry.example.com"#, "user information"),
        (#"evil.example\@registry.example.com"#, "user information"),
        ("https://evil.example%5C@registry.example.com/v2/", "user information"),
        // Go accepts these and keys by the host; a registry's address never has user information.
        ("https://user@registry.example.com", "user information"),
        ("https://user:hunter2@registry.example.com/", "user information"),
        ("registry.example.com@registry.example.com", "user information"),
        // Go: invalid character "\\" in host name; WHATWG reads a backslash as a slash.
        (#"https://registry.example.com\.evil.example"#, "backslash"),
        (#"https://registry.example.com\"#, "backslash"),
        ("https://registry.example.com evil.example", "white space"),
        ("https://registry.example.com\u{200B}", "invisible"),
        ("https://registry.example.com\u{3000}.evil", "white space"),
        ("https://registry.exam\u{7F}ple.com", "control character"),
        ("https://registry.exam\u{1B}ple.com", "control character"),
        // Go: an escape in a host may stand only for a non-ASCII byte.
        ("https://registry%2eexample.com", "escapes an ASCII character"),
        ("https://registry.example.com%", "not an escape"),
        ("https://registry.example.com%zz", "not an escape"),
        ("https://registry.example.com/v2/%zz", "not an escape"),
        ("https://regi<stry.example.com", "invalid character \"<\" in host name"),
        ("https://", "no hostname in URL"),
        ("https://:5000/v2/", "no hostname in URL"),
        ("//", "no hostname in URL"),
        ("https://[]:5000", "not an IPv6 address"),
        ("https://[registry.example.com]/", "not an IPv6 address"),
        ("https://[::1", "missing ']' in host"),
        ("https://[::1]x/", "not a number"),
        ("https://[fe80::1%eth0]/", "'%25'"),
        ("https://registry.example.com:50x0", "not a number"),
        ("https://registry.example.com:99999", "out of range"),
        ("https://registry.example.com:0", "out of range"),
        ("://registry.example.com", "missing protocol scheme"),
        ("file://registry.example.com/", "unsupported scheme: file"),
    ]

    @Test("A hostile server URL never reaches registry.example.com's credential: get, erase and store refuse it (exit 1, reason on stderr)")
    func hostileServerURLsAreRefused() throws {
        let runner = HelperRunner(sandbox: try CLISandbox())
        let stored = try runner.dockerHelper("store", try CredentialHelperDockerTests.storeInput("https://registry.example.com", "victim", "registry-secret"))
        try #require(stored.status == 0, "\(stored)")
        let before = try runner.snapshot()
        for (url, reason) in Self.refused {
            for action in ["get", "erase"] {
                let result = try runner.dockerHelper(action, url)
                #expect(result.status == 1, "\(action) \(url): \(result)")
                #expect(!result.stdout.contains("registry-secret") && !result.stdout.contains("victim"), "\(action) \(url): \(result)")
                #expect(result.stderr.hasPrefix("docker-credential-keychain: \(action): ") && result.stderr.contains(reason),
                        "\(action) \(url): \(result)")
                #expect(!result.stderr.contains("hunter2") && !result.stdout.contains("hunter2"), "\(action) \(url): \(result)")
            }
            let store = try runner.dockerHelper("store", try CredentialHelperDockerTests.storeInput(url, "attacker", "planted"))
            #expect(store.status == 1 && store.stderr.contains(reason), "store \(url): \(store)")
        }
        #expect(try runner.snapshot() == before)
        #expect(try CredentialHelperDockerTests.decode(try runner.dockerHelper("get", "https://registry.example.com"))["Secret"] == "registry-secret")
    }

    /// Server URLs Go accepts that must keep working, with the server, port and path they are
    /// stored under.
    static let accepted: [(url: String, server: String, port: Int?, path: String)] = [
        ("registry.example.com", "registry.example.com", nil, ""),
        ("registry.example.com:5000", "registry.example.com", 5000, ""),
        ("registry.example.com:5000/team/app", "registry.example.com", 5000, "/team/app"),
        ("https://registry.example.com:5000/v2/", "registry.example.com", 5000, "/v2/"),
        ("https://registry.example.com:/v2/", "registry.example.com", nil, "/v2/"),
        ("https://registry.example.com/v2/?service=x#top", "registry.example.com", nil, "/v2/"),
        ("https://registry.example.com/a%20b", "registry.example.com", nil, "/a b"),
        ("HTTPS://Registry.Example.com", "Registry.Example.com", nil, ""),
        ("http://localhost:5000", "localhost", 5000, ""),
        ("https://[::1]:5000/", "::1", 5000, "/"),
        ("[2001:db8::1]", "2001:db8::1", nil, ""),
        ("https://[fe80::1%25eth0]:5000", "fe80::1%eth0", 5000, ""),
        ("https://r%C3%A9gistry.example", "régistry.example", nil, ""),
        ("https://régistry.example/v1/", "régistry.example", nil, "/v1/"),
        ("my_registry.internal:443", "my_registry.internal", 443, ""),
    ]

    @Test("Server URLs Go accepts keep working: ports, paths, no scheme, IPv6 literals (with a zone), escapes; each under its host")
    func acceptedServerURLs() throws {
        let runner = HelperRunner(sandbox: try CLISandbox())
        for (index, (url, server, port, path)) in Self.accepted.enumerated() {
            let user = "user\(index)"
            let stored = try runner.dockerHelper("store", try CredentialHelperDockerTests.storeInput(url, user, "secret\(index)"))
            #expect(stored.status == 0, "store \(url): \(stored)")
            let got = try runner.dockerHelper("get", url)
            #expect(got.status == 0, "get \(url): \(got)")
            if got.status == 0 {
                #expect(try CredentialHelperDockerTests.decode(got) == ["ServerURL": url, "Username": user, "Secret": "secret\(index)"],
                        "get \(url): \(got)")
            }
            let item = try runner.keychainctl(["find-internet-password", "-s", server, "-a", user])
            #expect(item.status == 0, "\(url) is not stored under \(server): \(item)")
            let pathLine = path.isEmpty ? #""path"<blob>=<NULL>"# : #""path"<blob>="\#(path)""#
            #expect(item.stdout.contains(pathLine), "\(url): \(item.stdout)")
            let portLine = #""port"<uint32>="# + String(format: "0x%08X", port ?? 0)
            #expect(item.stdout.contains(portLine), "\(url): \(item.stdout)")
        }
    }
}
