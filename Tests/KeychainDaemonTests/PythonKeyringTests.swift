import Foundation
import Testing

/// Python `keyring` with its SecretService backend (Debian's python3-keyring over
/// python3-secretstorage, which opens its session with Diffie-Hellman), against keychaind.
@Suite struct PythonKeyringTests {
    /// Runs a script with the SecretService backend selected explicitly, so that a failure to
    /// reach the service is an error rather than a silent fallback to another backend.
    static func keyring(_ sandbox: DaemonSandbox, _ body: String) throws -> ClientResult {
        try sandbox.python("""
        import sys, keyring
        from keyring.backends import SecretService
        kr = SecretService.Keyring()
        if kr.priority <= 0:
            sys.exit("the SecretService backend is not usable")
        \(body)
        """)
    }

    @Test func setGetDeleteAndCredentials() throws {
        let sandbox = try DaemonSandbox()
        let result = try Self.keyring(sandbox, """
        kr.set_password("svc", "alice", "pw-1")
        print(kr.get_password("svc", "alice"))
        kr.set_password("svc", "alice", "pw-2")
        print(kr.get_password("svc", "alice"))
        cred = kr.get_credential("svc", None)
        print(cred.username, cred.password)
        kr.delete_password("svc", "alice")
        print(kr.get_password("svc", "alice"))
        try:
            kr.delete_password("svc", "alice")
        except keyring.errors.PasswordDeleteError:
            print("gone")
        """)
        #expect(result.status == 0, "\(result)\n\(sandbox.log)")
        #expect(result.stdout == "pw-1\npw-2\nalice pw-2\nNone\ngone\n")
    }

    @Test func keyringAndTheKeychainSeeOneItem() throws {
        let sandbox = try DaemonSandbox()
        // Python writes, the keychain's own tools read.
        #expect(try Self.keyring(sandbox, #"kr.set_password("S", "U", "from-python")"#).status == 0)
        let found = try sandbox.keychainctl(["find-generic-password", "-s", "S", "-a", "U", "-w"])
        #expect(found.status == 0, "\(found)")
        #expect(found.stdout == "from-python\n")
        // The keychain writes, Python and secret-tool read.
        let added = try sandbox.keychainctl(["add-generic-password", "-s", "S2", "-a", "U2", "-w", "from-keychainctl"])
        #expect(added.status == 0, "\(added)")
        let read = try Self.keyring(sandbox, #"print(kr.get_password("S2", "U2"))"#)
        #expect(read.stdout == "from-keychainctl\n", "\(read)")
        let looked = try sandbox.secretTool(["lookup", "service", "S2", "username", "U2"])
        #expect(looked.stdout == "from-keychainctl", "\(looked)")
        // Python replaces the keychain's item rather than adding a second one beside it.
        #expect(try Self.keyring(sandbox, #"kr.set_password("S2", "U2", "replaced")"#).status == 0)
        let again = try sandbox.keychainctl(["find-generic-password", "-s", "S2", "-a", "U2", "-w"])
        #expect(again.stdout == "replaced\n")
        let dump = try sandbox.keychainctl(["dump-keychain"])
        #expect(dump.stdout.components(separatedBy: "\"svce\"<blob>=\"S2\"").count - 1 == 1, "\(dump)")
    }

    @Test func unicodeAndBinarySafeSecrets() throws {
        let sandbox = try DaemonSandbox()
        let result = try Self.keyring(sandbox, """
        secret = "p\\u00e4ss \\u2603 \\U0001F511 " + "x" * 5000
        kr.set_password("unicode", "\\u00fc", secret)
        print(kr.get_password("unicode", "\\u00fc") == secret)
        """)
        #expect(result.stdout == "True\n", "\(result)")
    }
}
