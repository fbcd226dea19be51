import Foundation
@testable import KeychainServices
import KeychainTestSupport
import Testing

/// The keeper's messages (docs/design-notes.md, "The keeper"): every value SecItem dictionaries
/// carry comes back as the same value, and bytes that are not a message are a status, never a
/// crash or an allocation of what a hostile length asks for.
struct KeeperWireTests {
    static func roundTrip(_ object: Any) throws -> KeeperValue {
        let value = try KeeperValue(object: object)
        let call = KeeperCall(operation: .copyMatching, query: value, changes: .null, wantsResult: true)
        guard case .success(let read) = KeeperCall.read(call.bytes) else {
            Issue.record("a written call did not read back")
            return .null
        }
        #expect(read == call)
        return read.query
    }

    @Test func valuesComeBackAsTheyWent() throws {
        let control = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, .userPresence, nil)!
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecReturnData as String: true,
            kSecMatchLimit as String: 5, "real": 2.5, "big": NSNumber(value: UInt64.max),
            kSecValueData as String: Data([0, 1, 255]), "date": Date(timeIntervalSinceReferenceDate: 12.5),
            "list": ["a", Data([1])], "null": NSNull(), kSecAttrAccessControl as String: control,
        ]
        let value = try Self.roundTrip(query)
        let object = try #require(try value.object() as? NSDictionary)
        #expect(object[kSecClass as String] as? String == kSecClassGenericPassword as String)
        #expect(ValueConversion.boolean(object[kSecReturnData as String]!) == true)
        #expect(ValueConversion.boolean(object[kSecMatchLimit as String]!) == nil)
        #expect((object[kSecMatchLimit as String] as? NSNumber)?.intValue == 5)
        #expect((object["real"] as? NSNumber)?.doubleValue == 2.5)
        #expect((object["big"] as? NSNumber)?.uint64Value == UInt64.max)
        #expect(object[kSecValueData as String] as? Data == Data([0, 1, 255]))
        #expect((object["date"] as? Date)?.timeIntervalSinceReferenceDate == 12.5)
        #expect(object["null"] is NSNull)
        let returned = try #require(object[kSecAttrAccessControl as String] as? SecAccessControl)
        #expect(returned.protection == control.protection && returned.flags == control.flags)
    }

    /// EC and Ed25519, by their kSecAttrKeyType strings (a CFString is not Sendable here).
    @Test(arguments: [kSecAttrKeyTypeECSECPrimeRandom as String, kSecAttrKeyTypeEd25519 as String])
    func keysCross(_ type: String) throws {
        let key = try #require(SecKeyCreateRandomKey([kSecAttrKeyType as String: type,
                                                      kSecAttrKeySizeInBits as String: 256] as CFDictionary, nil))
        for half in [key, try #require(SecKeyCopyPublicKey(key))] {
            let back = try #require(try Self.roundTrip(["k": half]).object() as? NSDictionary)
            let crossed = try #require(back["k"] as? SecKey)
            #expect(crossed == half)
            #expect(SecKeyCopyExternalRepresentation(crossed, nil) as Data? == SecKeyCopyExternalRepresentation(half, nil) as Data?)
            let attributes = SecKeyCopyAttributes(crossed) as? [String: Any]
            #expect(attributes?[kSecAttrKeyType as String] as? String == type)
        }
    }

    @Test func anObjectThatCannotCrossIsAParameterError() {
        #expect(throws: KeeperValueError.self) { try KeeperValue(object: ["x": NSObject()]) }
        #expect((try? KeeperValue(object: NSObject())) == nil)
    }

    @Test func hostileBytesAreRefusedNotRead() {
        // A count of four billion elements in a short message.
        #expect(KeeperCall.read([1, 2, 9, 0xff, 0xff, 0xff, 0xff]) == .failure(.malformed))
        // A string length past the end, a string that is not UTF-8, an unknown tag.
        #expect(KeeperCall.read([1, 2, 6, 0, 0, 0, 9, 65]) == .failure(.malformed))
        #expect(KeeperCall.read([1, 2, 6, 0, 0, 0, 1, 0xff, 0, 0]) == .failure(.malformed))
        #expect(KeeperCall.read([1, 2, 99, 0, 0]) == .failure(.malformed))
        #expect(KeeperCall.read([7, 2, 0, 0, 0]) == .failure(.unknownVersion))
        // Arrays nested past the depth bound.
        #expect(KeeperCall.read([1, 2] + Array(repeating: [9, 0, 0, 0, 1], count: 40).flatMap { $0 } + [0, 0, 0]) == .failure(.malformed))
        // Bytes after a whole request.
        #expect(KeeperCall.read([1, 2, 0, 0, 0, 7]) == .failure(.malformed))
        #expect(KeeperCall.read([1, 2, 0, 0, 0]) != .failure(.malformed))
    }

    /// A certificate search's kSecMatchPolicy crosses as the policy it is, hostname included.
    @Test func policiesComeBackAsTheyWent() throws {
        let policies: [SecPolicy] = [SecPolicyCreateBasicX509(), SecPolicyCreateSSL(true, "example.com" as CFString),
                                     SecPolicyCreateSSL(false, nil), SecPolicyCreateRevocation(kSecRevocationOCSPMethod)!]
        for policy in policies {
            let value = try Self.roundTrip([kSecMatchPolicy as String: policy])
            let object = try #require(try value.object() as? NSDictionary)
            #expect(object[kSecMatchPolicy as String] as? SecPolicy == policy, "\(policy)")
        }
    }

    /// A query with a dictionary as a key (the message FuzzKeeper found) is refused before
    /// Foundation reads it: such a key trapped inside NSDictionary's enumeration and took
    /// keychaind down with it. Plain keys (numbers, data) still cross, for the SecItem calls to
    /// answer as they do embedded.
    @Test func aDictionaryWhoseKeysAreNotStringsIsRefusedNotRun() throws {
        // Fuzz/corpus/FuzzKeeper/dictionary-as-a-key.
        let message: [UInt8] = [
            0x01, 0x02, 0x0a, 0x00, 0x00, 0x00, 0x05, 0x01, 0x00, 0x00, 0x00, 0x00, 0x02, 0x0a, 0x00, 0x00,
            0x00, 0x00, 0x02, 0x0a, 0x00, 0x00, 0x00, 0x05, 0x01, 0x02, 0x0a, 0x00, 0x00, 0x00, 0x02, 0x00,
            0x00, 0x01, 0x00, 0x00, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        ]
        guard case .success(let call) = KeeperCall.read(message) else {
            Issue.record("the message no longer reads as a request; it should reach the handler")
            return
        }
        #expect(throws: KeeperValueError.self) { try call.query.object() }
        let keychain = try TestKeychain()
        let (answer, _) = KeeperRequestHandler.answer(message, file: keychain.file, identity: .unconfigured)
        #expect(try KeeperAnswer.read(answer).status == errSecParam)
        let plain = try KeeperValue.dictionary([KeeperEntry(key: .string("class"), value: .string("genp")),
                                                KeeperEntry(key: .integer(1234), value: .string("x"))]).object()
        #expect((plain as? NSDictionary)?.count == 2)
        // A boolean beside a number of the same value: two keys to NSDictionary, one once bridged
        // (Foundation's "Duplicate keys" trap, Fuzz/corpus/FuzzKeeper/keys-equal-once-bridged).
        for key in [KeeperValue.boolean(false), .real(0), .unsigned(0), .date(0), .null] {
            let query = KeeperValue.dictionary([KeeperEntry(key: key, value: .null), KeeperEntry(key: .integer(0), value: .null)])
            #expect(throws: KeeperValueError.self) { try query.object() }
            let message = KeeperCall(operation: .copyMatching, query: query, changes: .null, wantsResult: true).bytes
            #expect(try KeeperAnswer.read(KeeperRequestHandler.answer(message, file: keychain.file, identity: .unconfigured).bytes).status == errSecParam)
        }
    }

    /// Seeded random bytes and random cuts of a real request: each read ends in a request or a
    /// refusal, and every answer the handler would give for them is a status.
    @Test func randomBytesNeverCrashTheReader() throws {
        var generator = SplitMix(seed: 0x5eed)
        let real = KeeperCall(operation: .add, query: try KeeperValue(object: [kSecClass as String: kSecClassGenericPassword,
                                                                                "list": [1, "two", Data([3])]]),
                              changes: .null, wantsResult: false).bytes
        for round in 0..<5_000 {
            var bytes: [UInt8]
            if round % 2 == 0 {
                bytes = (0..<Int(generator.next() % 64)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            } else {
                bytes = Array(real.prefix(Int(generator.next() % UInt64(real.count + 1))))
                if !bytes.isEmpty { bytes[Int(generator.next() % UInt64(bytes.count))] ^= UInt8(truncatingIfNeeded: generator.next() | 1) }
            }
            if case .success(let call) = KeeperCall.read(bytes) { _ = try? call.query.object() }
        }
    }
}

/// A small seeded generator, so that a failing round can be run again.
private struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9e3779b97f4a7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58476d1ce4e5b9
        z = (z ^ (z >> 27)) &* 0x94d049bb133111eb
        return z ^ (z >> 31)
    }
}
