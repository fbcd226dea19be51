import Foundation
@testable import KeychainStore
import KeychainTestSupport
import Testing

/// The engine builds on FoundationEssentials, so the few things it took from Foundation proper
/// (NSString's path parent, `trimmingCharacters(in: .whitespaces)`, `String(format:)` hex and
/// `PropertyListSerialization`) are its own now: these pin what they give against Foundation's
/// answers for the inputs the engine meets.
@Suite struct FoundationEssentialsTextTests {
    @Test("The path parent is NSString's for absolute, normalised paths")
    func pathParent() {
        for path in ["/", "/a", "/a/b", "/home/user/.local/share/keychains", "/a/b/", "relative", "a/b"] {
            #expect(PlainText.deletingLastPathComponent(path) == (path as NSString).deletingLastPathComponent, "\(path)")
        }
    }

    @Test("Trimming removes what Foundation's .whitespaces does, and only that")
    func trimming() {
        for text in ["", " ", "  group ", "\tgroup\t", "\u{00A0}g r\u{3000}", "g\n", "\ng", " a b "] {
            #expect(PlainText.trimmingSpaces(text) == text.trimmingCharacters(in: .whitespaces), "\(Array(text.unicodeScalars))")
        }
    }

    @Test("Hex is lower case, two digits a byte")
    func hex() {
        let bytes: [UInt8] = [0x00, 0x0f, 0xa0, 0xff, 0x42]
        #expect(PlainText.lowercaseHex(bytes) == bytes.map { String(format: "%02x", $0) }.joined())
        #expect(PlainText.lowercaseHex([]) == "")
    }

    @Test("An entitlements file gives its groups and application identifier; other types count as absent")
    func entitlements() throws {
        let keychain = try TestKeychain()
        let path = keychain.directory.appendingPathComponent("app.entitlements").path
        func identity(_ body: String) throws -> ClientIdentity {
            let plist = """
                <?xml version="1.0" encoding="UTF-8"?>
                <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
                <plist version="1.0"><dict>\(body)</dict></plist>
                """
            try Data(plist.utf8).write(to: URL(fileURLWithPath: path))
            return try ClientIdentity.fromEnvironment(["SWIFT_KEYCHAIN_ENTITLEMENTS": path])
        }
        let full = try identity("""
            <key>keychain-access-groups</key><array><string>TEAM.one</string><string>TEAM.two</string></array>
            <key>application-identifier</key><string>TEAM.app</string><key>other</key><true/>
            """)
        #expect(full.accessGroups == ["TEAM.one", "TEAM.two", "TEAM.app"])
        let wrongTypes = try identity("""
            <key>keychain-access-groups</key><string>TEAM.one</string>
            <key>application-identifier</key><string>TEAM.app</string>
            """)
        #expect(wrongTypes.accessGroups == ["TEAM.app"])
        try Data("not a property list".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: KeychainStoreError.self) { try ClientIdentity.fromEnvironment(["SWIFT_KEYCHAIN_ENTITLEMENTS": path]) }
    }
}
