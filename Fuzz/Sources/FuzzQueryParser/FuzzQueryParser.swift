import Foundation
import FuzzSupport
@testable import KeychainServices
@testable import KeychainStore

/// The query-dictionary parser on dictionaries built from the fuzzer's bytes: keys from the
/// whole kSec vocabulary (and strings, numbers and data that are not keys), values of every type
/// a caller can pass (strings, data, integers, reals, booleans, dates, null, arrays, nested
/// dictionaries, access-control objects). Each dictionary is read once (`NSDictionary.entries`,
/// as the SecItem calls read it) and parsed for SecItemAdd,
/// SecItemCopyMatching, SecItemUpdate and SecItemDelete, and read as the attributes of an update
/// for every class. A crash or a sanitizer report is a finding; a status is not.
/// The program's entry point under SwiftPM (see ``runFuzzer(_:_:_:)``).
@_cdecl("FuzzQueryParser_main")
public func fuzzQueryParserMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzQueryParser)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzQueryParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    // Read as the SecItem calls read it: from Foundation's storage, or through Foundation's
    // enumeration when it holds what only Foundation can unwrap.
    let entries = QueryBuilder.dictionary(&input, depth: 0).entries
    for operation in [Operation.add, .copyMatching, .update, .delete] {
        _ = try? QueryParser.parse(entries, for: operation)
    }
    for requestClass in [RequestClass.table(.genericPassword), .table(.internetPassword), .table(.certificate),
                         .table(.key), .identity] {
        _ = try? QueryParser.parseChanges(entries, for: requestClass)
    }
    return 0
}

enum QueryBuilder {
    /// Every key a SecItem dictionary may hold (the values behind the kSec constants), plus
    /// schema-internal names and near misses.
    static let keys: [String] = [
        "class", "acct", "svce", "agrp", "pdmn", "sync", "labl", "desc", "icmt", "gena", "srvr", "ptcl", "port",
        "path", "atyp", "sdmn", "cdat", "mdat", "crtr", "type", "invi", "nega", "cusi", "scrp", "alis", "tomb",
        "accc", "musr", "nleg", "persistref", "ggrp", "clip", "data", "v_pk", "rowid", "sha1", "UUID",
        "binn", "bini", "bin0", "bin1", "bin2", "bin3", "kcls", "klbl", "atag", "perm", "priv", "modi", "bsiz",
        "esiz", "sdat", "edat", "sens", "asen", "extr", "next", "encr", "decr", "drve", "sign", "vrfy", "snrc",
        "vyrc", "wrap", "unwp", "crtp", "cenc", "issr", "slnr", "subj", "skid", "pkhh", "tkid",
        "v_Data", "v_Ref", "v_PersistentRef", "v_Attributes",
        "r_Data", "r_Attributes", "r_Ref", "r_PersistentRef",
        "m_Limit", "m_LimitOne", "m_LimitAll", "m_CaseInsensitive", "m_Policy", "m_Issuers",
        "m_EmailAddressIfPresent", "m_SubjectContains", "m_SubjectStartsWith", "m_SubjectEndsWith",
        "m_SubjectWholeString", "m_ItemList", "m_SearchList", "m_HostOrSubdomainOfHost", "m_TrustedOnly",
        "m_ValidOnDate", "m_DiacriticInsensitive", "m_WidthInsensitive",
        "u_AuthUI", "u_NoAuthUI", "u_OpPrompt", "u_AuthCtx", "u_CredRef", "u_ItemList", "u_Tomb",
        "u_CallerName", "u_SystemKeychain", "u_Keychain", "f_nothing", "x", "", "ACCT", "acct ",
    ]

    /// Strings that mean something as values: class names, protection classes, limits, protocol
    /// and authentication codes, UI policies.
    static let strings: [String] = [
        "genp", "inet", "cert", "keys", "idnt", "apls", "ak", "ck", "dk", "aku", "cku", "dku", "akpu", "f",
        "m_LimitAll", "m_LimitOne", "syna", "htps", "http", "ftp ", "dflt", "ntlm", "u_AuthUIA", "u_AuthUIF",
        "u_AuthUIS", "swift-keychain.shared", "fuzz.example", "-1", "0", "1", "2147483648", "12abc", "é", "",
    ]

    static func string(_ input: inout FuzzInput) -> String {
        if input.choose(3) == 0 {
            return String(decoding: input.bytes(input.choose(24)), as: UTF8.self)
        }
        return strings[input.choose(strings.count)]
    }

    static func key(_ input: inout FuzzInput) -> AnyHashable {
        switch input.choose(16) {
        case 0: return AnyHashable(string(&input))
        case 1: return AnyHashable(NSNumber(value: Int(input.byte())))
        case 2: return AnyHashable(Data(input.bytes(4)) as NSData)
        default: return AnyHashable(keys[input.choose(keys.count)])
        }
    }

    static func value(_ input: inout FuzzInput, depth: Int) -> Any {
        switch input.choose(depth > 2 ? 12 : 15) {
        case 0, 1: return string(&input) as NSString
        case 2: return Data(input.bytes(input.choose(40))) as NSData
        case 3: return NSNumber(value: Int64(bitPattern: input.uint64()))
        case 4: return NSNumber(value: Int(Int8(bitPattern: input.byte())))
        case 5: return NSNumber(value: Double(bitPattern: input.uint64()))
        case 6: return (input.byte() & 1 == 0 ? kCFBooleanFalse! : kCFBooleanTrue!) as AnyObject
        case 7: return NSDate(timeIntervalSinceReferenceDate: Double(Int32(truncatingIfNeeded: input.uint64())))
        case 8: return NSNull()
        case 9: return NSNumber(value: input.uint64())
        case 10:
            // A persistent reference: a class code and a 16-byte identity, or something near it.
            var bytes = Array(strings[input.choose(6)].utf8)
            bytes += input.bytes(input.choose(4) == 0 ? input.choose(24) : 16)
            return Data(bytes) as NSData
        case 11:
            let protections = ["ak", "ck", "dk", "aku", "cku", "dku", "akpu", "f", "bogus"]
            let flags = SecAccessControlCreateFlags(rawValue: CFOptionFlags(input.uint64() & 0xC000_C03F))
            return SecAccessControlCreateWithFlags(nil, protections[input.choose(protections.count)] as NSString, flags, nil)
                ?? NSNull()
        case 12: return (0..<input.choose(5)).map { _ in value(&input, depth: depth + 1) } as NSArray
        case 13: return dictionary(&input, depth: depth + 1)
        default: return Int(input.byte()) as NSNumber
        }
    }

    static func dictionary(_ input: inout FuzzInput, depth: Int) -> NSDictionary {
        let result = NSMutableDictionary()
        // Mostly a class first, so that the parser gets past its first check.
        if depth == 0 && input.choose(8) != 0 {
            result["class"] = strings[input.choose(6)] as NSString
        }
        let count = depth == 0 ? input.choose(20) : input.choose(4)
        for _ in 0..<count where !input.isAtEnd {
            result[key(&input)] = value(&input, depth: depth)
        }
        return result
    }
}
