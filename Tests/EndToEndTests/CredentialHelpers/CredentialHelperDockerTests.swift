import Foundation
import Testing

/// docker-credential-keychain driven by docker's credential helper protocol
/// (docker-credential-helpers' credentials.go): JSON in, JSON out, errors on standard output.
@Suite struct CredentialHelperDockerTests {
    static func decode(_ result: CLIResult) throws -> [String: String] {
        let object = try JSONSerialization.jsonObject(with: result.stdoutData)
        return try #require(object as? [String: String], "not a JSON object of strings: \(result)")
    }

    static func storeInput(_ url: String, _ username: String, _ secret: String) throws -> String {
        let data = try JSONSerialization.data(withJSONObject: ["ServerURL": url, "Username": username, "Secret": secret])
        return String(decoding: data, as: UTF8.self)
    }

    @Test("store, get, list and erase round-trip, with JSON escapes and non-ASCII text")
    func roundTrip() throws {
        let runner = HelperRunner(sandbox: try CLISandbox())
        let secret = "quote\" backslash\\ slash/ tab\t newline\n nul\u{0} émoji 🐳 <&>"
        let username = "jürgen \"the\" ünïcode"
        let stored = try runner.dockerHelper("store", try Self.storeInput("https://index.docker.io/v1/", username, secret))
        #expect(stored.status == 0 && stored.stdout.isEmpty, "\(stored)")

        let got = try runner.dockerHelper("get", "https://index.docker.io/v1/\n")
        #expect(got.status == 0, "\(got)")
        #expect(got.stdout.hasPrefix(#"{"ServerURL":"https://index.docker.io/v1/","Username":"#), "\(got)")
        #expect(got.stdout.hasSuffix("}\n"))
        let answer = try Self.decode(got)
        #expect(answer == ["ServerURL": "https://index.docker.io/v1/", "Username": username, "Secret": secret])

        #expect(try runner.dockerHelper("store", try Self.storeInput("http://localhost:5000", "local", "pw")).status == 0)
        let listed = try runner.dockerHelper("list")
        #expect(listed.status == 0, "\(listed)")
        #expect(try Self.decode(listed) == ["https://index.docker.io/v1/": username, "http://localhost:5000": "local"])

        let erased = try runner.dockerHelper("erase", "https://index.docker.io/v1/")
        #expect(erased.status == 0 && erased.stdout.isEmpty, "\(erased)")
        #expect(try Self.decode(try runner.dockerHelper("list")) == ["http://localhost:5000": "local"])
    }

    @Test("A missing credential answers docker-credential-helpers' exact sentence on standard output, exit 1")
    func notFound() throws {
        let runner = HelperRunner(sandbox: try CLISandbox())
        for action in ["get", "erase"] {
            let result = try runner.dockerHelper(action, "https://nothing.example\n")
            #expect(result.status == 1)
            #expect(result.stdout == "credentials not found in native keychain\n")
            #expect(result.stderr.isEmpty)
        }
        let empty = try runner.dockerHelper("list")
        #expect(empty.status == 0 && empty.stdout == "{}\n", "\(empty)")
    }

    @Test("Stored as docker-credential-osxkeychain stores it: label, account, server, protocol, port, path, dflt")
    func storedShape() throws {
        let runner = HelperRunner(sandbox: try CLISandbox())
        #expect(try runner.dockerHelper("store", try Self.storeInput("registry.example.com:5000/team", "ci", "tok")).status == 0)
        let item = try runner.keychainctl(["find-internet-password", "-s", "registry.example.com", "-a", "ci"])
        #expect(item.status == 0, "\(item)")
        for attribute in [#"0x00000007 <blob>="Docker Credentials""#, #""ptcl"<uint32>="htps""#, #""port"<uint32>=0x00001388"#,
                          #""path"<blob>="/team""#, #""atyp"<blob>="dflt""#, #""srvr"<blob>="registry.example.com""#] {
            #expect(item.stdout.contains(attribute), "\(attribute)\n\(item.stdout)")
        }
        #expect(try runner.keychainctl(["find-internet-password", "-s", "registry.example.com", "-w"]).stdout == "tok\n")
        #expect(try Self.decode(try runner.dockerHelper("get", "https://registry.example.com:5000/team"))["Secret"] == "tok")

        // http:// is kSecAttrProtocolHTTP; storing again replaces the registry's credential.
        #expect(try runner.dockerHelper("store", try Self.storeInput("http://plain.example", "a", "1")).status == 0)
        #expect(try runner.dockerHelper("store", try Self.storeInput("http://plain.example", "b", "2")).status == 0)
        #expect(try runner.keychainctl(["find-internet-password", "-s", "plain.example", "-r", "http", "-a", "b", "-w"]).stdout == "2\n")
        #expect(try runner.keychainctl(["find-internet-password", "-s", "plain.example", "-a", "a"]).status == 44)
    }

    @Test("docker never reads or erases a credential it did not store (git's, for the same host)")
    func onlyDockersItems() throws {
        let runner = HelperRunner(sandbox: try CLISandbox())
        #expect(try runner.gitHelper("store", "protocol=https\nhost=shared.example\nusername=git-user\npassword=git-pw\n\n").status == 0)
        #expect(try runner.dockerHelper("get", "shared.example").stdout == "credentials not found in native keychain\n")
        #expect(try runner.dockerHelper("erase", "https://shared.example").status == 1)
        #expect(try runner.keychainctl(["find-internet-password", "-s", "shared.example", "-w"]).stdout == "git-pw\n")
    }

    @Test("version, usage and an unknown action")
    func commandLine() throws {
        let runner = HelperRunner(sandbox: try CLISandbox())
        let version = try runner.dockerHelper("version")
        let ctl = try runner.keychainctl(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("docker-credential-keychain (swift-keychain) v"))
        // The one version of the package, as keychainctl --version prints it.
        let number = try #require(ctl.stdout.split(separator: " ").last?.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(version.stdout == "docker-credential-keychain (swift-keychain) v\(number)\n", "\(version) vs \(ctl)")
        let unknown = try runner.dockerHelper("frobnicate")
        #expect(unknown.status == 1)
        #expect(unknown.stdout == "docker-credential-keychain: unknown action: frobnicate\n")
        let usage = try runner.run(try HelperRunner.docker(), [])
        #expect(usage.status == 1 && usage.stdout.hasPrefix("Usage: docker-credential-keychain <store|get|erase|list|version>"), "\(usage)")
    }

    @Test("A locked keychain: every action fails with a message that is not the not-found sentence, and nothing changes")
    func lockedKeychain() throws {
        let runner = HelperRunner(sandbox: try CLISandbox())
        #expect(try runner.dockerHelper("store", try Self.storeInput("https://r.example", "u", "sealed-secret")).status == 0)
        try runner.lockDefaultKeychain()
        for (action, input) in [("get", "https://r.example"), ("list", ""), ("erase", "https://r.example"),
                                ("store", try Self.storeInput("https://r.example", "u", "new"))] {
            let result = try runner.dockerHelper(action, input)
            #expect(result.status == 1, "\(action): \(result)")
            #expect(result.stdout.contains("locked") && !result.stdout.contains("credentials not found"), "\(action): \(result)")
            #expect(result.stderr.contains("errSecInteractionNotAllowed"), "\(action): \(result)")
            #expect(!result.stdout.contains("sealed-secret") && !result.stderr.contains("sealed-secret"))
        }
        let session = try runner.keychainctl(["-i"], stdin: "unlock-keychain -p pw\nfind-internet-password -s r.example -w\n")
        #expect(session.stdout == "sealed-secret\n", "\(session)")
    }

    static let hostileInputs: [(name: String, action: String, input: Data?, message: String)] = [
        ("not JSON", "store", Data("hunter2".utf8), "not a JSON object"),
        ("a JSON array", "store", Data(#"["https://x","u","hunter2"]"#.utf8), "not a JSON object"),
        ("a field that is not a string", "store", Data(#"{"ServerURL":"https://x","Username":7,"Secret":"hunter2"}"#.utf8), "Username is not a string"),
        ("no server URL", "store", Data(#"{"Username":"u","Secret":"hunter2"}"#.utf8), "no credentials server URL"),
        ("no username", "store", Data(#"{"ServerURL":"https://x","Secret":"hunter2"}"#.utf8), "no credentials username"),
        ("unsupported scheme", "store", Data(#"{"ServerURL":"ftp://x","Username":"u","Secret":"hunter2"}"#.utf8), "unsupported scheme: ftp"),
        ("no host", "store", Data(#"{"ServerURL":"https:///v2/","Username":"u","Secret":"hunter2"}"#.utf8), "no hostname in URL"),
        ("NUL in the username", "store", Data(#"{"ServerURL":"https://x","Username":"u\u0000v","Secret":"hunter2"}"#.utf8), "NUL"),
        ("value over 64 KiB", "store", Data((#"{"ServerURL":"https://x","Username":"u","Secret":""# + String(repeating: "h", count: 65 * 1024) + #""}"#).utf8), "longer than 65536"),
        ("input over 1 MiB", "store", Data(String(repeating: " ", count: 1024 * 1024 + 1).utf8), "longer than 1048576"),
        ("binary junk", "store", Data((0..<4096).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 11) }), "not a JSON object"),
        ("binary junk URL", "get", Data([0xff, 0x00, 0xfe, 0x0a]), "not UTF-8"),
        ("empty URL", "get", Data(" \n\n".utf8), "no credentials server URL"),
        ("URL line over 64 KiB", "erase", Data(("https://" + String(repeating: "a", count: 65 * 1024)).utf8), "longer than 65536"),
        ("closed standard input", "get", nil, "cannot read standard input"),
    ]

    @Test("Hostile input: exit 1, the reason on standard output (docker's place) and standard error, no secret in it, no change")
    func hostileInput() throws {
        let runner = HelperRunner(sandbox: try CLISandbox())
        #expect(try runner.dockerHelper("store", try Self.storeInput("https://x", "u", "kept")).status == 0)
        let before = try runner.snapshot()
        for (name, action, input, message) in Self.hostileInputs {
            let result = try runner.run(try HelperRunner.docker(), [action], stdin: input)
            #expect(result.status == 1, "\(name): \(result)")
            #expect(result.stdout.contains(message), "\(name): \(result)")
            #expect(result.stdout.split(separator: "\n").count == 1, "\(name): \(result)")
            #expect(result.stderr.hasPrefix("docker-credential-keychain: \(action): "), "\(name): \(result)")
            #expect(!result.stdout.contains("hunter2") && !result.stderr.contains("hunter2"), "\(name): \(result)")
        }
        #expect(try runner.snapshot() == before)
    }
}
