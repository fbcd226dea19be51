import Foundation
import Testing
import KeychainServices
import KeychainStore
import KeychainTestSupport

@Suite struct SmokeTests {
    @Test("A password added with SecItemAdd is found with SecItemCopyMatching")
    func addAndFind() throws {
        let keychain = try TestKeychain()
        keychain.run {
            let add: [String: Any] = ["class": "genp", "svce": "example.com", "acct": "alice", "v_Data": Data("s3cret".utf8)]
            #expect(SecItemAdd(add as CFDictionary, nil) == 0)
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecDuplicateItem)
            var result: CFTypeRef?
            let query: [String: Any] = ["class": "genp", "svce": "example.com", "acct": "alice", "r_Data": kCFBooleanTrue!]
            #expect(SecItemCopyMatching(query as CFDictionary, &result) == 0)
            #expect(result as? Data == Data("s3cret".utf8))
            var attributes: CFTypeRef?
            let q2: [String: Any] = ["class": "genp", "svce": "example.com", "r_Attributes": true, "m_Limit": "m_LimitAll"]
            #expect(SecItemCopyMatching(q2 as CFDictionary, &attributes) == 0)
            let array = attributes as? [[String: Any]]
            #expect(array?.count == 1)
            #expect(array?.first?["acct"] as? String == "alice")
            #expect(SecItemUpdate(["class": "genp", "acct": "alice"] as CFDictionary, ["v_Data": Data("new".utf8)] as CFDictionary) == 0)
            result = nil
            #expect(SecItemCopyMatching(query as CFDictionary, &result) == 0)
            #expect(result as? Data == Data("new".utf8))
            #expect(SecItemDelete(["class": "genp", "acct": "alice"] as CFDictionary) == 0)
            #expect(SecItemDelete(["class": "genp", "acct": "alice"] as CFDictionary) == errSecItemNotFound)
        }
        let bytes = keychain.rawBytes()
        #expect(bytes.range(of: Data("s3cret".utf8)) == nil)
        #expect(bytes.range(of: Data("example.com".utf8)) == nil)
        #expect(bytes.range(of: Data("alice".utf8)) == nil)
    }
}
