import Foundation
import KeychainServices
import KeychainStore
import Testing

/// Seed 004's internet-password flow (Examples/SeedInternetPassword), run as a program against a
/// private keychain, one step per process where the article's steps are separate moments of an
/// app's life (sign in, relaunch, password changed elsewhere, sign out).
@Suite("Seed 004 (internet password add/search/update/delete) as a program")
struct SeedInternetPasswordTests {
    static let server = "www.example.com"

    func seed(_ arguments: [String], in home: HermeticHome) throws -> ProofSupport.Outcome {
        try ProofSupport.run(try ProofSupport.product("seed-internet-password"), arguments, environment: home.environment)
    }

    @Test("The whole flow in one run: added, found with its account, updated, found updated, deleted, then not found")
    func wholeFlow() throws {
        let home = try HermeticHome()
        let outcome = try seed([], in: home)
        #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
        #expect(outcome.lines == [
            "add: ok",
            "search: username=alice password=first-password",
            "update: ok",
            "search: username=alice password=second-password",
            "delete: ok",
            "search: noPassword",
        ])
    }

    @Test("A second add for the same server and account, from a second process, fails with errSecDuplicateItem")
    func secondAddIsDuplicate() throws {
        let home = try HermeticHome()
        let first = try seed(["add", "bob", "pw-1"], in: home)
        #expect(first.status == 0)
        #expect(first.lines == ["add: ok"])
        let second = try seed(["add", "bob", "pw-2"], in: home)
        #expect(second.status == 1)
        #expect(second.lines.first?.hasPrefix("add: unhandledError(status: -25299)") == true, "\(second.stdout)")
        // The duplicate changed nothing.
        #expect(try seed(["search"], in: home).lines == ["search: username=bob password=pw-1"])
    }

    @Test("A search in a later process finds the internet password by server and returns its account and data")
    func searchInLaterProcess() throws {
        let home = try HermeticHome()
        #expect(try seed(["add", "carol@example.com", "pässwörd ✓"], in: home).status == 0)
        let found = try seed(["search"], in: home)
        #expect(found.status == 0)
        #expect(found.lines == ["search: username=carol@example.com password=pässwörd ✓"])
    }

    @Test("The program stores an internet password with the article's server and account, readable by any process")
    func storedAsInternetPassword() throws {
        let home = try HermeticHome()
        #expect(try seed(["add", "dave", "secret-d"], in: home).status == 0)
        let context = try home.openKeychain()
        var result: CFTypeRef?
        let status = KeychainContext.withContext(context) {
            SecItemCopyMatching([kSecClass as String: kSecClassInternetPassword,
                                 kSecAttrServer as String: Self.server,
                                 kSecAttrAccount as String: "dave",
                                 kSecReturnData as String: true] as CFDictionary, &result)
        }
        #expect(status == errSecSuccess)
        #expect(result as? Data == Data("secret-d".utf8))
        // …and not as a generic password.
        let generic = KeychainContext.withContext(context) {
            SecItemCopyMatching([kSecClass as String: kSecClassGenericPassword] as CFDictionary, nil)
        }
        #expect(generic == errSecItemNotFound)
    }

    @Test("An update from another process changes both the account and the password the next search returns")
    func updateChangesAccountAndPassword() throws {
        let home = try HermeticHome()
        #expect(try seed(["add", "erin", "old"], in: home).status == 0)
        let update = try seed(["update", "erin.new", "new"], in: home)
        #expect(update.lines == ["update: ok"])
        #expect(try seed(["search"], in: home).lines == ["search: username=erin.new password=new"])
    }

    @Test("An update with nothing stored reports noPassword (errSecItemNotFound)")
    func updateWithNothingStored() throws {
        let home = try HermeticHome()
        let update = try seed(["update", "frank", "x"], in: home)
        #expect(update.status == 1)
        #expect(update.lines == ["update: noPassword"])
    }

    @Test("After a delete in one process, a search in the next finds nothing; a second delete still succeeds as the article allows")
    func deleteThenSearch() throws {
        let home = try HermeticHome()
        #expect(try seed(["add", "gina", "pw"], in: home).status == 0)
        #expect(try seed(["delete"], in: home).lines == ["delete: ok"])
        let search = try seed(["search"], in: home)
        #expect(search.status == 1)
        #expect(search.lines == ["search: noPassword"])
        // The article accepts errSecItemNotFound from SecItemDelete as success.
        let again = try seed(["delete"], in: home)
        #expect(again.status == 0)
        #expect(again.lines == ["delete: ok"])
    }

    @Test("After sign-out (delete) the same account can be added again")
    func addAfterDelete() throws {
        let home = try HermeticHome()
        #expect(try seed(["add", "hank", "one"], in: home).status == 0)
        #expect(try seed(["delete"], in: home).status == 0)
        #expect(try seed(["add", "hank", "two"], in: home).lines == ["add: ok"])
        #expect(try seed(["search"], in: home).lines == ["search: username=hank password=two"])
    }
}
