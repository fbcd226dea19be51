import Foundation
import Testing

/// `--json` on find-generic-password, find-internet-password and dump-keychain, parsed back
/// with JSONSerialization.
@Suite struct CLIJSONTests {
    func object(_ result: CLIResult) throws -> [String: Any] {
        try #require(result.status == 0, "\(result)")
        return try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any], "\(result)")
    }

    func array(_ result: CLIResult) throws -> [[String: Any]] {
        try #require(result.status == 0, "\(result)")
        return try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [[String: Any]], "\(result)")
    }

    func isoDate(_ value: Any?) -> Date? {
        guard let text = value as? String else { return nil }
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }

    @Test("find-generic-password --json prints the item's attributes by name, and no password")
    func genericFields() throws {
        let sandbox = try CLISandbox()
        try sandbox.addGeneric(account: "alice", service: "example.com", password: "top-secret-1",
                               extra: ["-l", "My label", "-j", "a comment", "-D", "kind", "-c", "crea", "-C", "note", "-G", "gen"])
        let result = try sandbox.run(["find-generic-password", "-a", "alice", "-s", "example.com", "--json"])
        let item = try object(result)
        #expect(item["class"] as? String == "genp")
        #expect(item["account"] as? String == "alice")
        #expect(item["service"] as? String == "example.com")
        #expect(item["label"] as? String == "My label")
        #expect(item["comment"] as? String == "a comment")
        #expect(item["description"] as? String == "kind")
        #expect(item["creator"] as? String == "crea")
        #expect(item["type"] as? String == "note")
        #expect(item["generic"] as? String == "gen")
        #expect(item["keychain"] as? String == sandbox.defaultKeychain.path)
        let created = try #require(isoDate(item["creationDate"]), "creationDate: \(String(describing: item["creationDate"]))")
        #expect(abs(created.timeIntervalSinceNow) < 600)
        #expect(isoDate(item["modificationDate"]) != nil)
        #expect(item["password"] == nil && item["passwordBase64"] == nil)
        #expect(!result.stdout.contains("top-secret-1"))
        #expect(result.stderr.isEmpty)
    }

    @Test("The keys are sorted, so the output is stable")
    func sortedKeys() throws {
        let sandbox = try CLISandbox()
        try sandbox.addGeneric(account: "alice", service: "example.com", password: "p")
        let first = try sandbox.run(["find-generic-password", "-s", "example.com", "--json"])
        let second = try sandbox.run(["find-generic-password", "-s", "example.com", "--json"])
        #expect(first.stdout == second.stdout)
        let keys = first.stdout.split(separator: "\n").compactMap { line -> String? in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("\""), let end = trimmed.dropFirst().firstIndex(of: "\"") else { return nil }
            return String(trimmed[trimmed.index(after: trimmed.startIndex)..<end])
        }
        #expect(keys.count >= 6)
        #expect(keys == keys.sorted())
    }

    @Test("-w and -g with --json put the password in the object, on standard output")
    func passwordOnRequest() throws {
        let sandbox = try CLISandbox()
        try sandbox.addGeneric(account: "alice", service: "example.com", password: "top-secret-1")
        for flag in ["-w", "-g"] {
            let result = try sandbox.run(["find-generic-password", "-s", "example.com", flag, "--json"])
            let item = try object(result)
            #expect(item["password"] as? String == "top-secret-1")
            #expect(item["account"] as? String == "alice")
            #expect(!result.stderr.contains("top-secret-1"))
        }
    }

    @Test("A unicode password is a JSON string; a binary one is base64 in passwordBase64")
    func unicodeAndBinarySecrets() throws {
        let sandbox = try CLISandbox()
        try sandbox.addGeneric(account: "alice", service: "unicode", password: "pässwörd 🔑 \"q\" \\ /")
        let unicode = try object(try sandbox.run(["find-generic-password", "-s", "unicode", "-w", "--json"]))
        #expect(unicode["password"] as? String == "pässwörd 🔑 \"q\" \\ /")

        let bytes: [UInt8] = [0xFF, 0x00, 0xC3, 0x28, 0x41]
        let added = try sandbox.run(["add-generic-password", "-a", "alice", "-s", "binary", "-w"],
                                    stdinData: Data(bytes + [0x0A]))
        try #require(added.status == 0, "\(added)")
        let binary = try object(try sandbox.run(["find-generic-password", "-s", "binary", "-g", "--json"]))
        #expect(binary["password"] == nil)
        let encoded = try #require(binary["passwordBase64"] as? String)
        #expect(Data(base64Encoded: encoded) == Data(bytes))
    }

    @Test("find-internet-password --json names server, protocol, port, path, domain and authentication type")
    func internetFields() throws {
        let sandbox = try CLISandbox()
        #expect(try sandbox.run(CLIInternetPasswordTests.fullItem).status == 0)
        let result = try sandbox.run(["find-internet-password", "-s", "example.com", "--json"])
        let item = try object(result)
        #expect(item["class"] as? String == "inet")
        #expect(item["server"] as? String == "example.com")
        #expect(item["account"] as? String == "alice")
        #expect(item["protocol"] as? String == "htps")
        #expect(item["port"] as? Int == 443)
        #expect(item["path"] as? String == "/login")
        #expect(item["securityDomain"] as? String == "realm")
        #expect(item["authenticationType"] as? String == "form")
        #expect(item["password"] == nil)
        #expect(!result.stdout.contains("web-secret"))
        let withPassword = try object(try sandbox.run(["find-internet-password", "-s", "example.com", "-w", "--json"]))
        #expect(withPassword["password"] as? String == "web-secret")
    }

    @Test("dump-keychain --json is an array of every item, with passwords only with -d")
    func dump() throws {
        let sandbox = try CLISandbox()
        let empty = try array(try sandbox.run(["dump-keychain", "--json"]))
        #expect(empty.isEmpty)
        try sandbox.addGeneric(account: "alice", service: "one.example", password: "secret-one")
        try sandbox.addGeneric(account: "bob", service: "two.example", password: "secret-two")
        #expect(try sandbox.run(CLIInternetPasswordTests.fullItem).status == 0)

        let plain = try sandbox.run(["dump-keychain", "--json"])
        let items = try array(plain)
        #expect(items.count == 3)
        #expect(Set(items.compactMap { $0["account"] as? String }) == ["alice", "bob"])
        #expect(items.filter { $0["class"] as? String == "inet" }.count == 1)
        #expect(items.allSatisfy { $0["password"] == nil && $0["passwordBase64"] == nil })
        for secret in ["secret-one", "secret-two", "web-secret"] { #expect(!plain.stdout.contains(secret)) }

        let withData = try array(try sandbox.run(["dump-keychain", "-d", "--json"]))
        #expect(Set(withData.compactMap { $0["password"] as? String }) == ["secret-one", "secret-two", "web-secret"])
    }

    @Test("Errors stay on standard error with the usual exit status, and nothing is printed")
    func errors() throws {
        let sandbox = try CLISandbox()
        let missing = try sandbox.run(["find-generic-password", "-s", "nowhere", "--json"])
        #expect(missing.status == 44)
        #expect(missing.stdout.isEmpty)
        #expect(!missing.stderr.isEmpty)
        let dump = try sandbox.run(["dump-keychain", "--json", sandbox.path("absent.keychain-db")])
        #expect(dump.status != 0)
        #expect(dump.stdout.isEmpty)
    }
}
