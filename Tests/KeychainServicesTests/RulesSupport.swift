import Foundation
import KeychainServices
import KeychainStore
import KeychainTestSupport

// Shared vocabulary of the Rules* suites: each suite proves one part of Apple's SecItem behaviour
// (attributes and the four calls) for generic and internet passwords. Dictionaries are written with
// Apple's constants, as callers write them, and go through the public SecItem functions only.

/// A SecItem dictionary, keyed by the constants' string values.
typealias Item = [String: Any]

/// Builds a dictionary from Apple's constants (keys may be any CFString).
func item(_ pairs: KeyValuePairs<CFString, Any>) -> Item {
    var dictionary: Item = [:]
    for (key, value) in pairs { dictionary[key as String] = value }
    return dictionary
}

extension Dictionary where Key == String, Value == Any {
    /// This dictionary with `pairs` added (replacing keys it already has).
    func with(_ pairs: KeyValuePairs<CFString, Any>) -> Item {
        var copy = self
        for (key, value) in pairs { copy[key as String] = value }
        return copy
    }

    /// This dictionary without `keys`.
    func without(_ keys: CFString...) -> Item {
        var copy = self
        for key in keys { copy[key as String] = nil }
        return copy
    }

    /// The value for an Apple constant.
    subscript(_ key: CFString) -> Any? { self[key as String] }
}

/// The password classes, as test arguments (CFString is not Sendable, so the cases carry it).
enum PasswordClass: String, CaseIterable, Sendable, CustomStringConvertible {
    case genp, inet

    var secClass: CFString { self == .genp ? kSecClassGenericPassword : kSecClassInternetPassword }
    var description: String { self == .genp ? "kSecClassGenericPassword" : "kSecClassInternetPassword" }

    /// The dictionary naming just the class.
    var only: Item { item([kSecClass: secClass]) }

    /// A typical item of the class: the attributes real callers use to identify a password.
    var base: Item {
        switch self {
        case .genp:
            return item([kSecClass: secClass, kSecAttrService: "example.service", kSecAttrAccount: "alice"])
        case .inet:
            return item([kSecClass: secClass, kSecAttrServer: "example.com", kSecAttrAccount: "alice",
                         kSecAttrProtocol: kSecAttrProtocolHTTPS])
        }
    }

    /// `base` with a secret.
    var withSecret: Item { base.with([kSecValueData: Data("s3cret".utf8)]) }

    /// The class's primary-key attributes a caller can set (musr is the caller's view and ggrp
    /// is private, so neither is settable here), with two distinct values each.
    var primaryKeyVariants: [(CFString, Any, Any)] {
        var common: [(CFString, Any, Any)] = [
            (kSecAttrAccount, "alice", "bob"),
            (kSecAttrSyncViewHint, "view-a", "view-b"),
            (kSecAttrTokenID, "token-a", "token-b"),
        ]
        switch self {
        case .genp:
            common.append((kSecAttrService, "one.service", "two.service"))
        case .inet:
            common += [
                (kSecAttrSecurityDomain, "realm-a", "realm-b"),
                (kSecAttrServer, "a.example.com", "b.example.com"),
                (kSecAttrProtocol, kSecAttrProtocolHTTP, kSecAttrProtocolHTTPS),
                (kSecAttrAuthenticationType, kSecAttrAuthenticationTypeHTMLForm, kSecAttrAuthenticationTypeHTTPBasic),
                (kSecAttrPort, 80, 443),
                (kSecAttrPath, "/a", "/b"),
            ]
        }
        return common
    }
}

/// Calls SecItemAdd without a result.
func add(_ attributes: Item) -> OSStatus {
    SecItemAdd(attributes as CFDictionary, nil)
}

/// Calls SecItemAdd and returns the status and result.
func addReturning(_ attributes: Item) -> (status: OSStatus, result: CFTypeRef?) {
    var result: CFTypeRef?
    let status = SecItemAdd(attributes as CFDictionary, &result)
    return (status, result)
}

/// Calls SecItemCopyMatching and returns the status and result.
func copyMatching(_ query: Item) -> (status: OSStatus, result: CFTypeRef?) {
    var result: CFTypeRef?
    let status = SecItemCopyMatching(query as CFDictionary, &result)
    return (status, result)
}

/// Calls SecItemCopyMatching with a nil result pointer (an existence check).
func exists(_ query: Item) -> OSStatus {
    SecItemCopyMatching(query as CFDictionary, nil)
}

/// Calls SecItemUpdate.
func update(_ query: Item, _ changes: Item) -> OSStatus {
    SecItemUpdate(query as CFDictionary, changes as CFDictionary)
}

/// Calls SecItemDelete.
func delete(_ query: Item) -> OSStatus {
    SecItemDelete(query as CFDictionary)
}

/// The attribute dictionary of the one item matching `query`, or nil.
func attributes(of query: Item) -> [String: Any]? {
    let (status, result) = copyMatching(query.with([kSecReturnAttributes: kCFBooleanTrue!]))
    guard status == errSecSuccess else { return nil }
    return result as? [String: Any]
}

/// The secret of the one item matching `query`, or nil.
func secret(of query: Item) -> Data? {
    let (status, result) = copyMatching(query.with([kSecReturnData: kCFBooleanTrue!]))
    guard status == errSecSuccess else { return nil }
    return result as? Data
}

/// The persistent reference of the one item matching `query`, or nil.
func persistentReference(of query: Item) -> Data? {
    let (status, result) = copyMatching(query.with([kSecReturnPersistentRef: kCFBooleanTrue!]))
    guard status == errSecSuccess else { return nil }
    return result as? Data
}

/// How many items match `query` (0 when none).
func matchCount(_ query: Item) -> Int {
    let (status, result) = copyMatching(query.with([kSecReturnAttributes: kCFBooleanTrue!,
                                                    kSecMatchLimit: kSecMatchLimitAll]))
    guard status == errSecSuccess else { return 0 }
    return (result as? [Any])?.count ?? -1
}

/// The four calls, for rules that hold for every one of them.
enum Call: String, CaseIterable, Sendable {
    case add, copyMatching, update, delete

    /// Runs the call with `dictionary` as its query (for update, with an empty change set).
    func status(_ dictionary: Item) -> OSStatus {
        switch self {
        case .add: return KeychainServicesTests.add(dictionary)
        case .copyMatching: return KeychainServicesTests.copyMatching(dictionary).status
        case .update: return KeychainServicesTests.update(dictionary, [:])
        case .delete: return KeychainServicesTests.delete(dictionary)
        }
    }
}

/// Every pairing of a password class with a call.
let everyClassAndCall: [(PasswordClass, Call)] = PasswordClass.allCases.flatMap { c in Call.allCases.map { (c, $0) } }
