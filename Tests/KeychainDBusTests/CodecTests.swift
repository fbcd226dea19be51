import CDBus
import Foundation
import Testing
@testable import KeychainDBus

/// The codec without a bus: what is refused (thrown, never trapped on), what survives, and the
/// committed seed corpus of the fuzz target.
@Suite struct CodecTests {
    static func nested(_ depth: Int) -> DBusValue {
        (0..<depth).reduce(DBusValue.int32(7)) { inner, _ in .variant(inner) }
    }

    @Test(arguments: [
        ("mismatched element", [DBusValue.array(elementSignature: "s", [.int32(1)])]),
        ("one element of another type", [.array(elementSignature: "s", [.string("a"), .objectPath("/a")])]),
        ("bytes declared as strings", [.array(elementSignature: "s", [.bytes(Data())])]),
        ("dict entry outside an array", [.dictEntry(.string("a"), .string("b"))]),
        ("dict entry with a container key", [.array(elementSignature: "{(s)s}", [])]),
        ("empty structure", [.structure([])]),
        ("empty element signature", [.array(elementSignature: "", [])]),
        ("two types as one element", [.array(elementSignature: "ss", [])]),
        // Found by FuzzDBusMessage: inside a structure "(" + "abb" + "y)" is a valid signature.
        ("two types as one element, in a structure", [.structure([.array(elementSignature: "bb", []), .byte(0)])]),
        ("unbalanced element signature", [.array(elementSignature: "{s", [])]),
        ("string with NUL", [.string("a\u{0}b")]),
        ("object path with a trailing slash", [.objectPath("/a/")]),
        ("object path with a dash", [.objectPath("/a-b")]),
        ("empty object path", [.objectPath("")]),
        ("invalid signature value", [.signature("a{")]),
        ("variant nested too deep", [nested(65)]),
        ("arrays nested too deep", [(0..<33).reduce(DBusValue.array(elementSignature: "i", [])) { inner, _ in
            .array(elementSignature: inner.signature, [inner]) }]),
        ("signature over 255", Array(repeating: DBusValue.int32(0), count: 256)),
    ])
    func invalidValuesAreRefusedWithAnError(_ label: String, _ values: [DBusValue]) {
        let error = #expect(throws: DBusError.self, "\(label)") { try DBusWireFormat.roundTrip(values) }
        #expect(error?.name == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(throws: DBusError.self) { try DBusWireFormat.marshalSignal(path: "/a", interface: "a.b", member: "C", arguments: values) }
    }

    @Test func limitsThatAreJustAllowed() throws {
        let deepest = Self.nested(64)
        #expect(try DBusWireFormat.roundTrip([deepest]).arguments == [deepest])
        let arrays = (0..<31).reduce(DBusValue.array(elementSignature: "i", [.int32(1)])) { inner, _ in
            .array(elementSignature: inner.signature, [inner])
        }
        #expect(try DBusWireFormat.roundTrip([arrays]).arguments == [arrays])
        let wide = Array(repeating: DBusValue.byte(0), count: 255)
        #expect(try DBusWireFormat.roundTrip(wide).signature.count == 255)
        // Fixed-size elements do not count as a level (libdbus does not descend into them).
        let fixedAtTheBottom = (0..<63).reduce(DBusValue.array(elementSignature: "i", [.int32(1)])) { inner, _ in .variant(inner) }
        #expect(try DBusWireFormat.roundTrip([fixedAtTheBottom]).arguments == [fixedAtTheBottom])
    }

    @Test func aMarshalledMessageDemarshalsToItsValues() throws {
        let values: [DBusValue] = [.objectPath("/org/freedesktop/secrets/collection/login"),
                                   .stringDictionary(["a": "1"]), .bytes(Data(repeating: 0xAB, count: 1000))]
        let bytes = try DBusWireFormat.marshalSignal(path: "/p", interface: "org.example.I", member: "M", arguments: values)
        let message = try DBusWireFormat.demarshal(bytes)
        #expect(message.path == "/p" && message.interface == "org.example.I" && message.member == "M")
        #expect(message.signature == "oa{ss}ay")
        #expect(message.arguments == values)
        // Every truncation and a flipped signature byte are refused or decoded, never a trap.
        for length in stride(from: 0, to: bytes.count, by: 7) { _ = try? DBusWireFormat.demarshal(bytes.prefix(length)) }
        for index in 0..<min(bytes.count, 200) {
            var damaged = bytes
            damaged[index] ^= 0x5A
            _ = try? DBusWireFormat.demarshal(damaged)
        }
    }

    @Test func aFileDescriptorArgumentIsAnErrorNotATrap() throws {
        let message = try #require(dbus_message_new(DBUS_MESSAGE_TYPE_SIGNAL))
        defer { dbus_message_unref(message) }
        var fd: Int32 = 0
        #expect(dbus_message_append_args_fd(message, &fd))
        #expect(throws: DBusError.self) { try DBusCodec.decodeArguments(of: message) }
    }

    /// The fuzz target's seed corpus (Fuzz/corpus/FuzzDBusMessage): rewritten when
    /// KEYCHAIN_DBUS_WRITE_SEEDS=1, otherwise checked to demarshal to what it was made from.
    @Test func fuzzSeedCorpus() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Fuzz/corpus/FuzzDBusMessage").standardizedFileURL
        let seeds: [(String, String, [DBusValue])] = [
            ("secret-struct", "GetSecrets", [.array(elementSignature: "{o(oayays)}", [.dictEntry(
                .objectPath("/org/freedesktop/secrets/collection/login/1"),
                .structure([.objectPath("/org/freedesktop/secrets/session/1"), .bytes(Data(repeating: 7, count: 16)),
                            .bytes(Data("s3cret".utf8)), .string("text/plain; charset=utf8")]))])]),
            ("properties", "CreateItem", [.array(elementSignature: "{sv}", [
                .dictEntry(.string("org.freedesktop.Secret.Item.Label"), .variant(.string("Login"))),
                .dictEntry(.string("org.freedesktop.Secret.Item.Attributes"), .variant(.stringDictionary(["service": "example.com"]))),
            ]), .boolean(true)]),
            ("empty-containers", "Search", [.array(elementSignature: "{ss}", []), .array(elementSignature: "o", []), .bytes(Data()),
                                            .variant(.array(elementSignature: "(oayays)", []))]),
            ("numbers", "Numbers", [.byte(1), .int16(-2), .uint16(3), .int32(-4), .uint32(5), .int64(-6), .uint64(7),
                                    .double(0.5), .signature("a{sv}"), .array(elementSignature: "d", [.double(1), .double(-0.0)])]),
            ("nested-variants", "Deep", [Self.nested(20), .structure([.structure([.array(elementSignature: "ai", [.array(elementSignature: "i", [.int32(1)])])])])]),
        ]
        let write = ProcessInfo.processInfo.environment["KEYCHAIN_DBUS_WRITE_SEEDS"] == "1"
        if write { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        for (name, member, values) in seeds {
            let file = folder.appendingPathComponent(name)
            let bytes = try DBusWireFormat.marshalSignal(path: "/org/freedesktop/secrets", interface: "org.freedesktop.Secret.Service",
                                                         member: member, arguments: values)
            if write { try bytes.write(to: file) }
            guard let committed = try? Data(contentsOf: file) else {
                Issue.record("missing seed \(name): run with KEYCHAIN_DBUS_WRITE_SEEDS=1")
                continue
            }
            #expect(try DBusWireFormat.demarshal(committed).arguments == values)
        }
    }
}

/// Appends a Unix-fd argument through the iterator API (libdbus duplicates the descriptor).
private func dbus_message_append_args_fd(_ message: OpaquePointer, _ fd: inout Int32) -> Bool {
    var iterator = DBusMessageIter()
    dbus_message_iter_init_append(message, &iterator)
    return dbus_message_iter_append_basic(&iterator, Int32(UInt8(ascii: "h")), &fd) != 0
}
