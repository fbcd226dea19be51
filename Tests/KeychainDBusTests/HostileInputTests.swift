import Foundation
import Testing
@testable import KeychainDBus

/// Calls the daemon must be ready for: arguments of the wrong shape, very large ones, and a real
/// client other than ours (dbus-send).
@Suite struct HostileInputTests {
    @Test func aCallWithAnUnexpectedSignatureIsDeliveredAsReceived() throws {
        try withPrivateBus { bus in
            let server = try bus.connect()
            let calls = Inbox<DBusMethodCall>()
            try serveEcho(on: server, calls: calls)
            let running = Running(server)
            defer { running.stop() }
            let client = try bus.connect()
            // Say, Service.OpenSession (sv) called with a dictionary and a number.
            _ = try client.call(destination: server.uniqueName, path: "/test", interface: "org.freedesktop.Secret.Service",
                                member: "OpenSession", arguments: [.stringDictionary(["x": "y"]), .uint64(1)])
            let call = try #require(calls.next())
            #expect(call.signature == "a{ss}t")
            #expect(call.member == "OpenSession")
            #expect(call.arguments == [.stringDictionary(["x": "y"]), .uint64(1)])
        }
    }

    @Test func aTenThousandEntryDictionaryDecodes() throws {
        let entries = (0..<10_000).map { (DBusValue.string("key-\($0)"), DBusValue.string(String(repeating: "v", count: $0 % 50))) }
        let dictionary = DBusValue.dictionary(keySignature: "s", valueSignature: "s", entries)
        try withPrivateBus { bus in
            let server = try bus.connect()
            let calls = Inbox<DBusMethodCall>()
            try serveEcho(on: server, calls: calls)
            let running = Running(server)
            defer { running.stop() }
            let reply = try bus.connect().call(destination: server.uniqueName, path: "/test", interface: testInterface,
                                               member: "Echo", arguments: [dictionary, CodecTests.nested(64)])
            #expect(reply == [dictionary, CodecTests.nested(64)])
            let call = try #require(calls.next())
            #expect(call.signature == "a{ss}v")
            guard case .array(let signature, let received) = call.arguments.first else { Issue.record("not an array"); return }
            #expect(signature == "{ss}")
            #expect(received.count == 10_000)
        }
    }

    @Test func dbusSendIsAnswered() throws {
        try withPrivateBus { bus in
            let server = try bus.connect()
            let calls = Inbox<DBusMethodCall>()
            try serveEcho(on: server, calls: calls)
            #expect(try server.requestName(testName, replace: false, allowReplacement: false) == .primaryOwner)
            let running = Running(server)
            defer { running.stop() }

            let echo = try dbusSend(bus, ["--print-reply", "--dest=\(testName)", "/test/item",
                                          "\(testInterface).Echo", "string:x", "array:string:a,b", "dict:string:string:k,v"])
            #expect(echo.status == 0)
            let lines = echo.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(lines.first?.hasPrefix("method return") == true)
            #expect(Array(lines.dropFirst()) == ["string \"x\"", "array [", "string \"a\"", "string \"b\"", "]",
                                                  "array [", "dict entry(", "string \"k\"", "string \"v\"", ")", "]"])
            let call = try #require(calls.next())
            #expect(call.signature == "sasa{ss}")
            #expect(call.path == "/test/item")

            let fail = try dbusSend(bus, ["--print-reply", "--dest=\(testName)", "/test", "\(testInterface).Fail"])
            #expect(fail.status != 0)
            #expect(fail.errors.contains("org.example.Error.Refused"))
            #expect(fail.errors.contains("refused: /test"))
            _ = calls.next()

            // Without --print-reply dbus-send expects no reply: the handler runs, nothing is sent.
            let quiet = try dbusSend(bus, ["--type=method_call", "--dest=\(testName)", "/test/quiet", "\(testInterface).Echo", "string:y"])
            #expect(quiet.status == 0)
            #expect(calls.next()?.path == "/test/quiet")
        }
    }

    private func dbusSend(_ bus: PrivateBus, _ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-send")
        process.arguments = ["--bus=\(bus.address)"] + arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }
}
