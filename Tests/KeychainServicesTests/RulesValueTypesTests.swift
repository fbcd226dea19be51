import Foundation
import Testing
import KeychainServices
import KeychainStore
import KeychainTestSupport

/// Attribute kinds, how values of another type are coerced, and which attributes each class has:
/// every genp/inet attribute accepts its kinds of value and gives back
/// what Apple gives back.
@Suite("Rules: attribute value kinds round-trip")
struct RulesValueTypesTests {
    /// Blob attributes of each class: data, string and number values keep their type.
    static let blobAttributes: [(PasswordClass, String)] =
        ["desc", "icmt", "labl", "alis", "prot", "acct", "svce", "gena"].map { (.genp, $0) }
        + ["desc", "icmt", "labl", "alis", "prot", "acct", "sdmn", "srvr", "atyp", "path"].map { (.inet, $0) }

    /// Number attributes of each class.
    static let numberAttributes: [(PasswordClass, String)] =
        ["crtr", "type", "scrp", "invi", "nega", "cusi"].map { (.genp, $0) }
        + ["crtr", "type", "scrp", "invi", "nega", "cusi", "ptcl", "port"].map { (.inet, $0) }

    @Test("A blob attribute given data comes back as the same data", arguments: blobAttributes)
    func blobKeepsData(_ passwordClass: PasswordClass, _ name: String) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            let value = Data([0x00, 0xff, 0x10, 0x80])
            #expect(add(passwordClass.only.with([name as CFString: value])) == errSecSuccess)
            let stored = try #require(attributes(of: passwordClass.only.with([name as CFString: value])))
            #expect(stored[name] as? Data == value)
            #expect(!(stored[name] is String))
        }
    }

    @Test("A blob attribute given a string comes back as the same string", arguments: blobAttributes)
    func blobKeepsString(_ passwordClass: PasswordClass, _ name: String) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            #expect(add(passwordClass.only.with([name as CFString: "wert ü"])) == errSecSuccess)
            let stored = try #require(attributes(of: passwordClass.only.with([name as CFString: "wert ü"])))
            #expect(stored[name] as? String == "wert ü")
            #expect(!(stored[name] is Data))
        }
    }

    @Test("A blob attribute given a number keeps it as a number", arguments: [(PasswordClass.genp, "labl"), (.inet, "labl")])
    func blobKeepsNumber(_ passwordClass: PasswordClass, _ name: String) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            #expect(add(passwordClass.base.with([name as CFString: 42])) == errSecSuccess)
            let stored = try #require(attributes(of: passwordClass.base))
            #expect((stored[name] as? NSNumber)?.intValue == 42)
        }
    }

    @Test("A number attribute comes back as an NSNumber with its value", arguments: numberAttributes)
    func numberRoundTrips(_ passwordClass: PasswordClass, _ name: String) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            #expect(add(passwordClass.only.with([name as CFString: 1234])) == errSecSuccess)
            let stored = try #require(attributes(of: passwordClass.only.with([name as CFString: 1234])))
            let number = try #require(stored[name] as? NSNumber)
            #expect(number.intValue == 1234)
        }
    }

    @Test("A boolean given to a number attribute comes back as the number 0 or 1",
          arguments: [(PasswordClass.genp, "invi"), (.genp, "nega"), (.inet, "invi"), (.inet, "nega")])
    func booleanComesBackAsNumber(_ passwordClass: PasswordClass, _ name: String) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            #expect(add(passwordClass.base.with([name as CFString: kCFBooleanTrue!])) == errSecSuccess)
            let stored = try #require(attributes(of: passwordClass.base))
            let number = try #require(stored[name] as? NSNumber)
            #expect(number.intValue == 1)
            #expect(CFGetTypeID(number) == CFNumberGetTypeID())
            // A stored 1 matches a query for true, and for the number 1.
            #expect(exists(passwordClass.base.with([name as CFString: kCFBooleanTrue!])) == errSecSuccess)
            #expect(exists(passwordClass.base.with([name as CFString: 1])) == errSecSuccess)
        }
    }

    @Test("kSecAttrSynchronizable comes back as the number 0 or 1", arguments: PasswordClass.allCases)
    func synchronizableIsANumber(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            #expect(add(passwordClass.base) == errSecSuccess)
            #expect(add(passwordClass.base.with([kSecAttrSynchronizable: kCFBooleanTrue!])) == errSecSuccess)
            let plain = try #require(attributes(of: passwordClass.base))
            let synced = try #require(attributes(of: passwordClass.base.with([kSecAttrSynchronizable: kCFBooleanTrue!])))
            #expect(CFGetTypeID(plain["sync"] as AnyObject) == CFNumberGetTypeID())
            #expect((plain["sync"] as? NSNumber)?.intValue == 0)
            #expect((synced["sync"] as? NSNumber)?.intValue == 1)
        }
    }

    @Test("A numeric string given to a number attribute is stored as that number", arguments: PasswordClass.allCases)
    func numericStringBecomesNumber(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            #expect(add(passwordClass.base.with([kSecAttrCreator: "77"])) == errSecSuccess)
            let stored = try #require(attributes(of: passwordClass.base))
            #expect((stored["crtr"] as? NSNumber)?.intValue == 77)
            #expect(exists(passwordClass.base.with([kSecAttrCreator: 77])) == errSecSuccess)
        }
    }

    @Test("A non-numeric string given to a number attribute is kept as a string, without error (kSecAttrPort = \"\")")
    func emptyPortIsAccepted() throws {
        let keychain = try TestKeychain()
        try keychain.run {
            let query = PasswordClass.inet.base.with([kSecAttrPort: ""])
            #expect(add(query.with([kSecValueData: Data("pw".utf8)])) == errSecSuccess)
            let stored = try #require(attributes(of: query))
            #expect(stored["port"] as? String == "")
            #expect(add(PasswordClass.inet.base.with([kSecAttrCreator: "abcd"])) == errSecSuccess)
        }
    }

    @Test("Protocol and authentication-type constants round-trip as their strings")
    func internetConstantsRoundTrip() throws {
        let keychain = try TestKeychain()
        try keychain.run {
            let query = item([kSecClass: kSecClassInternetPassword, kSecAttrServer: "mail.example.com",
                              kSecAttrProtocol: kSecAttrProtocolIMAPS, kSecAttrAuthenticationType: kSecAttrAuthenticationTypeHTTPDigest,
                              kSecAttrPort: 993, kSecAttrPath: "/inbox", kSecAttrSecurityDomain: "realm"])
            #expect(add(query) == errSecSuccess)
            let stored = try #require(attributes(of: query))
            #expect(stored["ptcl"] as? String == "imps")
            #expect(stored["atyp"] as? String == "httd")
            #expect((stored["port"] as? NSNumber)?.intValue == 993)
            #expect(stored["path"] as? String == "/inbox")
            #expect(stored["sdmn"] as? String == "realm")
        }
    }

    @Test("String attributes (kSecAttrSyncViewHint, kSecAttrTokenID) given data are decoded as UTF-8 strings",
          arguments: PasswordClass.allCases, ["vwht", "tkid"])
    func stringAttributeDecodesData(_ passwordClass: PasswordClass, _ name: String) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            #expect(add(passwordClass.base.with([name as CFString: Data("hint".utf8)])) == errSecSuccess)
            let stored = try #require(attributes(of: passwordClass.base.with([name as CFString: "hint"])))
            #expect(stored[name] as? String == "hint")
        }
    }

    @Test("A string attribute given a number is errSecParam", arguments: PasswordClass.allCases)
    func stringAttributeRefusesNumber(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.base.with([kSecAttrSyncViewHint: 5])) == errSecParam)
            #expect(add(passwordClass.base.with([kSecAttrAccessible: 5])) == errSecParam)
        }
    }

    @Test("Creation and modification dates come back as dates", arguments: PasswordClass.allCases)
    func datesAreDates(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            #expect(add(passwordClass.base) == errSecSuccess)
            let stored = try #require(attributes(of: passwordClass.base))
            #expect(stored["cdat"] is Date)
            #expect(stored["mdat"] is Date)
        }
    }

    @Test("A date attribute given anything but a date is errSecParam", arguments: PasswordClass.allCases)
    func dateAttributeRefusesOtherTypes(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.base.with([kSecAttrCreationDate: "2020-01-01"])) == errSecParam)
            #expect(add(passwordClass.base.with([kSecAttrModificationDate: 0])) == errSecParam)
            #expect(copyMatching(passwordClass.base.with([kSecAttrCreationDate: Data()])).status == errSecParam)
        }
    }

    @Test("An attribute given an array, a dictionary or null is errSecParam",
          arguments: PasswordClass.allCases, ["acct", "labl", "crtr", "pdmn"])
    func containersAreRefused(_ passwordClass: PasswordClass, _ name: String) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.only.with([name as CFString: ["a"]])) == errSecParam)
            #expect(add(passwordClass.only.with([name as CFString: ["a": "b"]])) == errSecParam)
            #expect(add(passwordClass.only.with([name as CFString: kCFNull!])) == errSecParam)
            #expect(copyMatching(passwordClass.only.with([name as CFString: ["a"]])).status == errSecParam)
        }
    }

    @Test("kSecAttrAccessible is stored and returned for every accessibility a keychain without a password allows",
          arguments: PasswordClass.allCases, ["ak", "ck", "dk", "aku", "cku", "dku"])
    func accessibilityRoundTrips(_ passwordClass: PasswordClass, _ pdmn: String) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            #expect(add(passwordClass.withSecret.with([kSecAttrAccessible: pdmn])) == errSecSuccess)
            let stored = try #require(attributes(of: passwordClass.base))
            #expect(stored["pdmn"] as? String == pdmn)
            #expect(exists(passwordClass.base.with([kSecAttrAccessible: pdmn])) == errSecSuccess)
            #expect(secret(of: passwordClass.base) == Data("s3cret".utf8))
        }
    }

    @Test("Absent primary-key attributes are materialised and returned: empty strings and zero numbers",
          arguments: PasswordClass.allCases)
    func absentPrimaryKeyAttributesMaterialised(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            #expect(add(passwordClass.only) == errSecSuccess)
            let stored = try #require(attributes(of: passwordClass.only))
            #expect(stored["acct"] as? String == "")
            switch passwordClass {
            case .genp:
                #expect(stored["svce"] as? String == "")
            case .inet:
                for name in ["sdmn", "srvr", "atyp", "path"] { #expect(stored[name] as? String == "", "\(name)") }
                #expect((stored["ptcl"] as? NSNumber)?.intValue == 0)
                #expect((stored["port"] as? NSNumber)?.intValue == 0)
            }
            #expect((stored["sync"] as? NSNumber)?.intValue == 0)
            #expect(stored["agrp"] as? String == ClientIdentity.sharedGroup)
            #expect(stored["pdmn"] as? String == "ak")
        }
    }

    @Test("Attributes that were not given and are not primary keys are absent from the result",
          arguments: PasswordClass.allCases)
    func optionalAttributesAbsent(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            #expect(add(passwordClass.base) == errSecSuccess)
            let stored = try #require(attributes(of: passwordClass.base))
            for name in ["labl", "desc", "icmt", "crtr", "type", "invi", "nega", "vwht", "tkid"] {
                #expect(stored[name] == nil, "\(name)")
            }
        }
    }

    @Test("kSecValueData must be data: a string secret is errSecParam", arguments: PasswordClass.allCases)
    func secretMustBeData(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.base.with([kSecValueData: "s3cret"])) == errSecParam)
            #expect(add(passwordClass.base.with([kSecValueData: 5])) == errSecParam)
            #expect(exists(passwordClass.base) == errSecItemNotFound)
        }
    }

    @Test("A secret of any bytes, including empty and large, round-trips exactly", arguments: PasswordClass.allCases)
    func secretRoundTrips(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            let large = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            #expect(add(passwordClass.base.with([kSecValueData: large])) == errSecSuccess)
            #expect(secret(of: passwordClass.base) == large)
            let empty = passwordClass.base.with([kSecAttrAccount: "empty"])
            #expect(add(empty.with([kSecValueData: Data()])) == errSecSuccess)
            #expect(secret(of: empty) == Data())
        }
    }
}
