import Foundation
import KeychainServices
import Testing

/// SecAccessControlCreateWithFlags and its validation: which protections and flag combinations
/// Apple accepts, and how the object reads back.
@Suite struct SecAccessControlTests {
    static let protections: [String] = ["ak", "ck", "dk", "aku", "cku", "dku", "akpu", "f"]
    static let constraints: [(String, SecAccessControlCreateFlags)] = [
        ("userPresence", .userPresence), ("biometryAny", .biometryAny), ("biometryCurrentSet", .biometryCurrentSet),
        ("devicePasscode", .devicePasscode), ("companion", .companion),
    ]

    /// Creates an access control, returning it or the error's code.
    func create(_ protection: AnyObject, _ flags: SecAccessControlCreateFlags) -> (SecAccessControl?, Int?) {
        var error: Unmanaged<CFError>?
        let control = SecAccessControlCreateWithFlags(kCFAllocatorDefault, protection, flags, &error)
        return (control, error.map { CFErrorGetCode($0.takeRetainedValue()) })
    }

    @Test("Every protection with every single requirement and modifier makes an object carrying that protection",
          arguments: protections)
    func everyProtectionAndFlag(_ protection: String) {
        let flags: [SecAccessControlCreateFlags] = Self.constraints.map(\.1) + [[], .privateKeyUsage, .applicationPassword,
                                                    [.userPresence, .applicationPassword], [.devicePasscode, .privateKeyUsage]]
        for flag in flags {
            let (control, error) = create(protection as NSString, flag)
            #expect(error == nil, "flags 0x\(String(flag.rawValue, radix: 16))")
            #expect(control.map { SecAccessControlGetProtection($0) as? String } == protection)
        }
    }

    @Test("Several requirements combine with .or or .and (AND when neither is given)")
    func combinations() {
        for combinator: SecAccessControlCreateFlags in [[], .or, .and] {
            #expect(create("ak" as NSString, [.biometryAny, .devicePasscode, .companion, combinator]).1 == nil)
        }
    }

    @Test("An unknown protection, or one that is not a string, is errSecParam and no object")
    func badProtection() {
        for protection: AnyObject in ["always" as NSString, "" as NSString, NSNumber(value: 6), Data("ak".utf8) as NSData] {
            let (control, error) = create(protection, [])
            #expect(control == nil)
            #expect(error == Int(errSecParam))
        }
    }

    @Test(".or with .and is errSecParam")
    func orWithAnd() { #expect(create("ak" as NSString, [.devicePasscode, .biometryAny, .or, .and]).1 == Int(errSecParam)) }

    @Test(".biometryAny with .biometryCurrentSet is errSecParam")
    func bothBiometries() { #expect(create("ak" as NSString, [.biometryAny, .biometryCurrentSet]).1 == Int(errSecParam)) }

    @Test(".userPresence with another requirement is errSecParam, even with .or", arguments: ["biometryAny", "biometryCurrentSet", "devicePasscode", "companion"])
    func userPresenceAlone(_ other: String) throws {
        let flag = try #require(Self.constraints.first { $0.0 == other }?.1)
        #expect(create("ak" as NSString, [.userPresence, flag]).1 == Int(errSecParam))
        #expect(create("ak" as NSString, [.userPresence, flag, .or]).1 == Int(errSecParam))
    }

    @Test("A failure with a nil error pointer returns nil without crashing")
    func nilErrorPointer() {
        #expect(SecAccessControlCreateWithFlags(nil, "nonsense" as NSString, [], nil) == nil)
        #expect(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, [.or, .and], nil) == nil)
    }

    @Test("The error is in NSOSStatusErrorDomain")
    func errorDomain() {
        var error: Unmanaged<CFError>?
        _ = SecAccessControlCreateWithFlags(nil, "nonsense" as NSString, [], &error)
        let cfError = error?.takeRetainedValue()
        #expect(cfError.map { CFErrorGetDomain($0) as String } == "NSOSStatusErrorDomain")
    }

    @Test("Two objects made alike are equal; different flags or protections are not")
    func equality() {
        #expect(create("ak" as NSString, .userPresence).0 == create("ak" as NSString, .userPresence).0)
        #expect(create("ak" as NSString, .userPresence).0 != create("ak" as NSString, .devicePasscode).0)
        #expect(create("ak" as NSString, .userPresence).0 != create("ck" as NSString, .userPresence).0)
    }

    // Deprecated itself, because naming the deprecated flags is what it checks.
    @available(*, deprecated, message: "checks the deprecated flag names")
    @Test("The deprecated names are the same flags as the current ones")
    func deprecatedNames() {
        #expect(SecAccessControlCreateFlags.touchIDAny == .biometryAny)
        #expect(SecAccessControlCreateFlags.touchIDCurrentSet == .biometryCurrentSet)
        #expect(SecAccessControlCreateFlags.watch == .companion)
    }

    @Test("Flags have Apple's bit values")
    func bitValues() {
        let expected: [(SecAccessControlCreateFlags, UInt)] = [
            (.userPresence, 1), (.biometryAny, 2), (.biometryCurrentSet, 8), (.devicePasscode, 16), (.companion, 32),
            (.or, 1 << 14), (.and, 1 << 15), (.privateKeyUsage, 1 << 30), (.applicationPassword, 1 << 31),
        ]
        for (flag, value) in expected { #expect(flag.rawValue == value) }
    }
}
