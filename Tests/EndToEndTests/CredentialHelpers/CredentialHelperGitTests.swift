import Foundation
import Testing

/// git-credential-keychain run by the real git (`git credential fill/approve/reject`) and by
/// hand, against the keychain keychainctl sees.
@Suite struct CredentialHelperGitTests {
    @Test("git approve stores an internet password keychainctl finds; git fill reads it back; reject erases it")
    func approveFillReject() throws {
        let runner = HelperRunner(sandbox: try CLISandbox())
        let credential = "protocol=https\nhost=git.example.com\nusername=bob\npassword=s3cret\n\n"
        let approved = try runner.git("approve", credential)
        #expect(approved.status == 0, "\(approved)")

        let filled = try runner.git("fill", "protocol=https\nhost=git.example.com\n\n")
        #expect(filled.status == 0, "\(filled)")
        #expect(filled.credentialFields["username"] == "bob")
        #expect(filled.credentialFields["password"] == "s3cret")

        let found = try runner.keychainctl(["find-internet-password", "-s", "git.example.com", "-a", "bob", "-w"])
        #expect(found.status == 0, "\(found)")
        #expect(found.stdout == "s3cret\n")
        // The shape keychaind gives git's libsecret helper: server, account, protocol, port 0,
        // empty path, no authentication type; labelled as libsecret labels it.
        let item = try runner.keychainctl(["find-internet-password", "-s", "git.example.com"])
        #expect(item.stdout.contains(#""ptcl"<uint32>="htps""#))
        #expect(item.stdout.contains(#""port"<uint32>=0x00000000"#))
        #expect(item.stdout.contains(#""path"<blob>=<NULL>"#))
        #expect(item.stdout.contains(#""atyp"<blob>=<NULL>"#))
        #expect(item.stdout.contains(#"0x00000007 <blob>="Git: https://git.example.com/""#))
        #expect(item.stdout.contains(#""desc"<blob>="org.gnome.keyring.NetworkPassword""#))

        let rejected = try runner.git("reject", credential)
        #expect(rejected.status == 0, "\(rejected)")
        #expect(try runner.keychainctl(["find-internet-password", "-s", "git.example.com"]).status == 44)
        // Nothing stored and no prompt allowed: git gives up, and prints no password.
        let refill = try runner.git("fill", "protocol=https\nhost=git.example.com\n\n")
        #expect(refill.status != 0)
        #expect(!refill.stdout.contains("password="))
    }

    @Test("git fills in a password keychainctl added, and approve updates that item instead of adding a second")
    func interopWithKeychainctl() throws {
        let runner = HelperRunner(sandbox: try CLISandbox())
        let added = try runner.keychainctl(["add-internet-password", "-s", "code.example.org", "-a", "carol", "-r", "htps", "-w", "from-keychain"])
        #expect(added.status == 0, "\(added)")
        let filled = try runner.git("fill", "protocol=https\nhost=code.example.org\n\n")
        #expect(filled.status == 0, "\(filled)")
        #expect(filled.credentialFields["username"] == "carol")
        #expect(filled.credentialFields["password"] == "from-keychain")

        let approved = try runner.git("approve", "protocol=https\nhost=code.example.org\nusername=carol\npassword=rotated\n\n")
        #expect(approved.status == 0, "\(approved)")
        let found = try runner.keychainctl(["find-internet-password", "-s", "code.example.org", "-a", "carol", "-w"])
        #expect(found.stdout == "rotated\n")
        // Still one item (keychainctl's, with its `dflt` authentication type).
        let dump = try runner.keychainctl(["dump-keychain"])
        #expect(dump.stdout.components(separatedBy: "class: \"inet\"").count == 2, "\(dump.stdout)")
        #expect(dump.stdout.contains(#""atyp"<blob>="dflt""#))
    }

    @Test("Ports, paths and protocols are kept apart, as git names them (host:port, useHttpPath)")
    func portsAndPaths() throws {
        let runner = HelperRunner(sandbox: try CLISandbox())
        #expect(try runner.git("approve", "protocol=https\nhost=h.example:8443\npath=team/a.git\nusername=u\npassword=a\n\n", useHttpPath: true).status == 0)
        #expect(try runner.git("approve", "protocol=https\nhost=h.example:8443\npath=team/b.git\nusername=u\npassword=b\n\n", useHttpPath: true).status == 0)
        #expect(try runner.git("approve", "url=http://u:plain@h.example\n\n").status == 0)

        #expect(try runner.git("fill", "protocol=https\nhost=h.example:8443\npath=team/b.git\n\n", useHttpPath: true).credentialFields["password"] == "b")
        #expect(try runner.git("fill", "protocol=https\nhost=h.example:8443\npath=team/a.git\n\n", useHttpPath: true).credentialFields["password"] == "a")
        #expect(try runner.git("fill", "protocol=http\nhost=h.example\n\n").credentialFields["password"] == "plain")
        // A port git names must match; a request without one matches any port, as osxkeychain
        // and libsecret search (they leave the attribute out).
        let otherPort = try runner.gitHelper("get", "protocol=https\nhost=h.example:9443\npath=team/a.git\n\n")
        #expect(otherPort.status == 0 && otherPort.stdout.isEmpty, "\(otherPort)")
        #expect(try runner.gitHelper("get", "protocol=https\nhost=h.example\npath=team/a.git\n\n").credentialFields["password"] == "a")
        let item = try runner.keychainctl(["find-internet-password", "-s", "h.example", "-p", "team/b.git"])
        #expect(item.stdout.contains(#""port"<uint32>=0x000020FB"#), "\(item)")
    }

    @Test("password_expiry_utc and oauth_refresh_token are kept in the item's data, as git's osxkeychain and libsecret helpers keep them")
    func expiryAndRefreshToken() throws {
        let runner = HelperRunner(sandbox: try CLISandbox())
        let stored = try runner.gitHelper("store", "protocol=https\nhost=oauth.example\nusername=dora\npassword=access-token\npassword_expiry_utc=4102444800\noauth_refresh_token=refresh-me\nwwwauth[]=Bearer realm=\"x\"\ncapability[]=authtype\n\n")
        #expect(stored.status == 0, "\(stored)")
        let got = try runner.gitHelper("get", "protocol=https\nhost=oauth.example\n\n")
        #expect(got.status == 0, "\(got)")
        #expect(got.stdout == "username=dora\npassword=access-token\npassword_expiry_utc=4102444800\noauth_refresh_token=refresh-me\n")
        // The data is "password\npassword_expiry_utc=…\noauth_refresh_token=…" (keychainctl -w
        // prints data with a newline in hex).
        let raw = try runner.keychainctl(["find-internet-password", "-s", "oauth.example", "-w"])
        let expected = Data("access-token\npassword_expiry_utc=4102444800\noauth_refresh_token=refresh-me".utf8)
        #expect(raw.stdout == expected.map { String(format: "%02x", $0) }.joined() + "\n")

        // A store without them drops them.
        #expect(try runner.gitHelper("store", "protocol=https\nhost=oauth.example\nusername=dora\npassword=next\n\n").status == 0)
        #expect(try runner.gitHelper("get", "protocol=https\nhost=oauth.example\n\n").stdout == "username=dora\npassword=next\n")
        // git fill passes them through (git 2.41 and later; older versions drop them).
        let filled = try runner.git("fill", "protocol=https\nhost=oauth.example\n\n")
        #expect(filled.credentialFields["password"] == "next")
    }

    @Test("erase deletes only when the password matches, when one is given (osxkeychain's rule)")
    func eraseComparesPassword() throws {
        let runner = HelperRunner(sandbox: try CLISandbox())
        #expect(try runner.gitHelper("store", "protocol=https\nhost=e.example\nusername=eve\npassword=current\npassword_expiry_utc=4102444800\n\n").status == 0)
        let stale = try runner.gitHelper("erase", "protocol=https\nhost=e.example\nusername=eve\npassword=old\n\n")
        #expect(stale.status == 0, "\(stale)")
        #expect(try runner.keychainctl(["find-internet-password", "-s", "e.example", "-a", "eve"]).status == 0)
        // The first line of the data is the password; the expiry after it does not count.
        #expect(try runner.git("reject", "protocol=https\nhost=e.example\nusername=eve\npassword=current\n\n").status == 0)
        #expect(try runner.keychainctl(["find-internet-password", "-s", "e.example"]).status == 44)

        // Without a password every matching item goes; other hosts stay.
        #expect(try runner.gitHelper("store", "protocol=https\nhost=e.example\nusername=a\npassword=1\n\n").status == 0)
        #expect(try runner.gitHelper("store", "protocol=https\nhost=e.example\nusername=b\npassword=2\n\n").status == 0)
        #expect(try runner.gitHelper("store", "protocol=https\nhost=other.example\nusername=a\npassword=3\n\n").status == 0)
        #expect(try runner.gitHelper("erase", "protocol=https\nhost=e.example\n\n").status == 0)
        #expect(try runner.keychainctl(["find-internet-password", "-s", "e.example"]).status == 44)
        #expect(try runner.keychainctl(["find-internet-password", "-s", "other.example", "-w"]).stdout == "3\n")
    }

    @Test("With git's state capability, get marks what it answered and the store that follows leaves the item alone")
    func stateCapability() throws {
        let runner = HelperRunner(sandbox: try CLISandbox())
        #expect(try runner.gitHelper("store", "protocol=https\nhost=s.example\nusername=u\npassword=p\n\n").status == 0)
        let got = try runner.gitHelper("get", "capability[]=state\nprotocol=https\nhost=s.example\n\n")
        #expect(got.stdout == "username=u\npassword=p\ncapability[]=state\nstate[]=keychain:seen=1\n")
        let before = try runner.snapshot()
        #expect(try runner.gitHelper("store", "capability[]=state\nstate[]=keychain:seen=1\nprotocol=https\nhost=s.example\nusername=u\npassword=other\n\n").status == 0)
        #expect(try runner.snapshot() == before)
        // Without the capability, no state lines.
        #expect(try runner.gitHelper("get", "protocol=https\nhost=s.example\n\n").stdout == "username=u\npassword=p\n")
    }

    @Test("Protocols the keychain has no code for, and actions git may add later, are ignored silently (exit 0)")
    func ignoredRequests() throws {
        let runner = HelperRunner(sandbox: try CLISandbox())
        let before = try runner.snapshot()
        for action in ["store", "get", "erase"] {
            let result = try runner.gitHelper(action, "protocol=cert\npath=/etc/cert.p12\nusername=u\npassword=p\n\n")
            #expect(result.status == 0 && result.stdout.isEmpty && result.stderr.isEmpty, "\(action): \(result)")
        }
        let future = try runner.gitHelper("frobnicate", "protocol=https\nhost=x\n\n")
        #expect(future.status == 0 && future.stdout.isEmpty && future.stderr.isEmpty, "\(future)")
        #expect(try runner.snapshot() == before)
    }

    @Test("A locked keychain: get fails cleanly (exit 1, a message, no password line), git goes on to prompt (here: gives up), nothing changes")
    func lockedKeychain() throws {
        let runner = HelperRunner(sandbox: try CLISandbox())
        #expect(try runner.gitHelper("store", "protocol=https\nhost=l.example\nusername=u\npassword=locked-away\n\n").status == 0)
        try runner.lockDefaultKeychain()

        let got = try runner.gitHelper("get", "protocol=https\nhost=l.example\n\n")
        #expect(got.status == 1)
        #expect(got.stdout.isEmpty)
        #expect(got.stderr.contains("locked") && got.stderr.contains("unlock-keychain"), "\(got)")
        #expect(!got.stderr.contains("locked-away"))

        let filled = try runner.git("fill", "protocol=https\nhost=l.example\n\n")
        #expect(filled.status != 0)
        #expect(!filled.stdout.contains("password"))
        #expect(!filled.stderr.contains("locked-away"))

        for action in ["store", "erase"] {
            let result = try runner.gitHelper(action, "protocol=https\nhost=l.example\nusername=u\npassword=new\n\n")
            #expect(result.status == 1, "\(action): \(result)")
            #expect(result.stderr.contains("errSecInteractionNotAllowed"), "\(action): \(result)")
        }
        // Unlocked again (in one keychainctl process), the item is as it was.
        let session = try runner.keychainctl(["-i"], stdin: "unlock-keychain -p pw\nfind-internet-password -s l.example -w\n")
        #expect(session.stdout == "locked-away\n", "\(session)")
    }

    /// Requests a helper must refuse, with what each one is.
    static let hostileInputs: [(name: String, action: String, input: Data?)] = [
        ("NUL byte in a value", "store", Data("protocol=https\nhost=h\nusername=u\npassword=hunter2\0x\n\n".utf8)),
        ("line without =", "store", Data("protocol=https\nhost=h\nhunter2-no-equals\n\n".utf8)),
        ("value over 64 KiB", "store", Data(("protocol=https\nhost=h\nusername=u\npassword=" + String(repeating: "h", count: 65 * 1024) + "\n\n").utf8)),
        ("input over 1 MiB", "store", Data(String(repeating: "wwwauth[]=" + String(repeating: "w", count: 1000) + "\n", count: 1100).utf8)),
        ("host not UTF-8", "store", Data("protocol=https\nhost=".utf8) + Data([0xff, 0xfe, 0x80]) + Data("\nusername=u\npassword=p\n\n".utf8)),
        ("port out of range", "store", Data("protocol=https\nhost=h:99999\nusername=u\npassword=p\n\n".utf8)),
        ("port not a number", "get", Data("protocol=https\nhost=h:http\n\n".utf8)),
        ("no protocol", "get", Data("host=h\n\n".utf8)),
        ("no host", "erase", Data("protocol=https\nusername=u\n\n".utf8)),
        ("no password", "store", Data("protocol=https\nhost=h\nusername=u\n\n".utf8)),
        ("no username", "store", Data("protocol=https\nhost=h\npassword=hunter2\n\n".utf8)),
        ("url that is not one", "get", Data("url=::not a url::\n\n".utf8)),
        ("empty input", "get", Data()),
        ("closed standard input", "get", nil),
        ("binary junk", "store", Data((0..<4096).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13) })),
    ]

    @Test("Hostile input: a clean failure (exit 1, one message on standard error, no secret in it, no output), and no change to the keychain")
    func hostileInput() throws {
        let runner = HelperRunner(sandbox: try CLISandbox())
        #expect(try runner.gitHelper("store", "protocol=https\nhost=h\nusername=u\npassword=kept\n\n").status == 0)
        let before = try runner.snapshot()
        for (name, action, input) in Self.hostileInputs {
            let result = try runner.run(try HelperRunner.git(), [action], stdin: input)
            #expect(result.status == 1, "\(name): \(result)")
            #expect(result.stdout.isEmpty, "\(name): \(result)")
            #expect(result.stderr.hasPrefix("git-credential-keychain: \(action): "), "\(name): \(result)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(name): \(result)")
            #expect(!result.stderr.contains("hunter2"), "\(name): \(result)")
        }
        #expect(try runner.snapshot() == before)
        let usage = try runner.run(try HelperRunner.git(), [])
        #expect(usage.status == 1 && usage.stderr.hasPrefix("usage: git-credential-keychain"), "\(usage)")
    }
}
