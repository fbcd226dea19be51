import Foundation
import KeychainServices
import KeychainTestSupport

/// Makes random and malformed SecItem dictionaries from a seed, the same ones for the same seed:
/// wrong value types, unknown and junk keys, non-string keys, huge values, nested containers,
/// invalid UTF-8 and lone UTF-16 surrogates, NaN and infinite dates and numbers, NSNull, Swift
/// values boxed as `Any`, empty dictionaries — mixed with enough valid keys and values that many
/// dictionaries get past the first check and reach the engine.
struct MalformedQueries {
    private var random: SeededRandom

    init(seed: UInt64) { random = SeededRandom(seed: seed) }

    /// A Swift value with no Foundation counterpart, boxed when put in a dictionary.
    struct Opaque: Hashable { var a = 1; var b = "two" }
    enum Choice { case one, two(Int) }
    final class Reference {}

    // Big values are made once: building a mebibyte per dictionary would dominate the run.
    static let mebibyte = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
    static let longString = String(repeating: "ß漢🔑a", count: 25_000)
    static let invalidUTF8 = Data([0xC3, 0x28, 0xA0, 0xA1, 0xE2, 0x28, 0xA1, 0xF0, 0x28, 0x8C, 0xBC, 0xFF, 0xFE, 0xC0, 0x80])
    static var loneSurrogate: NSString { NSString(characters: [0x0061, 0xD800, 0x0062], length: 3) }
    static let classes: [String] = ["genp", "inet", "cert", "keys", "idnt", "genp", "inet", "GENP", "", "genp\u{0}", "apls"]
    static let metaKeys: [String] = [
        "class", "m_Limit", "m_LimitOne", "m_LimitAll", "m_CaseInsensitive", "m_SearchList", "m_Policy", "m_Issuers",
        "m_EmailAddressIfPresent", "m_SubjectContains", "m_ValidOnDate", "m_TrustedOnly", "r_Data", "r_Attributes",
        "r_Ref", "r_PersistentRef", "r_Junk", "v_Data", "v_PersistentRef", "v_Ref", "v_Junk", "u_AuthUI",
        "u_NoAuthUI", "u_OpPrompt", "u_AuthCtx", "u_ItemList", "u_Tomb", "u_CredRef", "u_Junk", "f_Whatever",
        "z_Unknown", "", "x", "classy", "🔑🔑🔑🔑🔑",
    ]
    static let attributeKeys: [String] = [
        "acct", "svce", "srvr", "sdmn", "ptcl", "atyp", "port", "path", "labl", "icmt", "desc", "gena", "crtr",
        "type", "invi", "nega", "cusi", "pdmn", "agrp", "sync", "accc", "musr", "nleg", "tomb", "cdat", "mdat",
        "sha1", "UUID", "persistref", "alis", "prot", "ggrp", "scrp", "vwht", "tkid", "binn", "bin0", "clip",
        "klbl", "kcls", "bsiz", "esiz", "cert", "issr", "slnr", "rowid", "v_pk", "data",
    ]
    static let stringValues: [String] = [
        "", "a", "alice", "example.com", "m_LimitOne", "m_LimitAll", "syna", "ak", "ck", "dk", "aku", "cku", "dku",
        "akpu", "htps", "dflt", "u_AuthUIA", "u_AuthUIF", "u_AuthUIS", "genp", "inet", "swift-keychain.shared",
        "sentinel.group", "fuzz.group", "com.apple.token", "-1", "0", "1", "9223372036854775808", "1e999",
        "a\u{0}b", "\u{FFFD}", "🔑", "Ünïcödé",
    ]

    mutating func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }
    mutating func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }

    /// A random key of one of the shapes Security distinguishes.
    mutating func key() -> AnyHashable {
        switch random.next() % 20 {
        case 0..<7: return pick(Self.attributeKeys)
        case 7..<13: return pick(Self.metaKeys)
        case 13..<16: return randomText(length: 4)
        case 16: return randomText(length: Int(random.next() % 9))
        case 17: return NSNumber(value: Int(random.next() % 5))
        case 18: return Data([UInt8(truncatingIfNeeded: random.next())])
        default: return NSNull()
        }
    }

    /// A random value: valid for some key, or not.
    mutating func value(depth: Int = 0) -> Any {
        switch random.next() % 34 {
        case 0..<6: return pick(Self.stringValues)
        case 6: return randomText(length: Int(random.next() % 40))
        case 7: return chance(3) ? Self.longString : String(repeating: "x", count: Int(random.next() % 2000))
        case 8: return Data((0..<Int(random.next() % 64)).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        case 9: return chance(3) ? Self.mebibyte : Data()
        case 10: return Self.invalidUTF8
        case 11: return Self.loneSurrogate
        case 12: return pick([0, 1, -1, 2, 80, 443, Int.max, Int.min]) as Int
        case 13: return NSNumber(value: pick([Int64.max, Int64.min, 0, 1, -1]))
        case 14: return NSNumber(value: UInt64.max)
        case 15: return NSNumber(value: pick([Double.nan, .infinity, -.infinity, -0.0, 0.5, 1e308, .leastNonzeroMagnitude]))
        case 16: return pick([Double.nan, .infinity, 1.5]) as Double
        case 17: return random.next() % 2 == 0
        case 18: return pick([kCFBooleanTrue!, kCFBooleanFalse!])
        case 19: return Date(timeIntervalSinceReferenceDate: pick([.nan, .infinity, -.infinity, 0, -1e12, 1e12, 7e8]))
        case 20: return NSNull()
        case 21: return Opaque()
        case 22: return Choice.two(Int(random.next() % 3))
        case 23: return Reference()
        case 24: return depth < 3 ? (0..<Int(random.next() % 4)).map { _ in value(depth: depth + 1) } : []
        case 25: return depth < 3 ? dictionary(maxKeys: 4, depth: depth + 1) : NSDictionary()
        case 26: return NSArray(array: [pick(Self.stringValues), Data([1, 2])])
        case 27: return NSSet(array: [1, 2, 3])
        case 28: return URL(string: "https://example.com/\(random.next() % 10)")!
        case 29: return UUID()
        case 30: return SecAccessControlCreateWithFlags(nil, pick([kSecAttrAccessibleWhenUnlocked, kSecAttrAccessibleAfterFirstUnlock]),
                                                        pick([[], .userPresence, .devicePasscode]), nil) as Any
        case 31: return pick([Int8(-1), UInt8(255)]) as Any
        case 32: return NSMutableData(length: Int(random.next() % 8))!
        default: return pick(Self.classes)
        }
    }

    /// A dictionary of up to `maxKeys` random entries, usually with a class.
    mutating func dictionary(maxKeys: Int = 12, depth: Int = 0) -> NSDictionary {
        let dictionary = NSMutableDictionary()
        if depth == 0 && chance(70) { dictionary["class"] = chance(90) ? pick(Self.classes) : value(depth: 1) }
        // At most one key that is not a string: Foundation on Linux traps when NSNumber, NSData
        // and NSNull keys collide in one dictionary (their hashing disagrees with isEqual).
        var foreignKeyUsed = false
        for _ in 0..<Int(random.next() % UInt64(maxKeys + 1)) {
            let key = key()
            if !(key.base is String) {
                if foreignKeyUsed { continue }
                foreignKeyUsed = true
            }
            dictionary[key] = value(depth: depth)
        }
        return dictionary
    }

    /// Letters from several scripts, control characters and surrogate-free emoji.
    mutating func randomText(length: Int) -> String {
        let pool: [Character] = ["a", "Z", "_", " ", "\u{0}", "\u{7F}", "é", "ß", "漢", "🔑", "\u{FEFF}", "\n", "%", "'"]
        return String((0..<length).map { _ in pick(pool) })
    }
}
