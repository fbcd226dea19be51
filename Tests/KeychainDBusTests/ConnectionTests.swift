import Foundation
import Testing
@testable import KeychainDBus
import KeychainLocking

/// Every test starts a dbus-daemon of its own (PrivateBus) and stops it at the end.
@Suite struct ConnectionTests {
    static let everyKind: [DBusValue] = [
        .byte(0xFE), .boolean(true), .boolean(false), .int16(-2), .uint16(65_000), .int32(-7), .uint32(4_000_000_000),
        .int64(.min), .uint64(.max), .double(-1.5), .string("päss wörd ✓"), .string(""),
        .objectPath("/org/freedesktop/secrets/collection/login"), .objectPath("/"), .signature("a{sv}"), .signature(""),
        .bytes(Data([0, 1, 2, 255])), .bytes(Data()),
        .array(elementSignature: "s", [.string("a"), .string("b")]),
        .array(elementSignature: "ai", [.array(elementSignature: "i", [.int32(1)]), .array(elementSignature: "i", [])]),
        .stringDictionary(["service": "example.com", "username": "alice"]),
        .array(elementSignature: "{sv}", [.dictEntry(.string("Label"), .variant(.string("Login"))),
                                          .dictEntry(.string("Locked"), .variant(.boolean(false)))]),
        .structure([.objectPath("/org/freedesktop/secrets/session/1"), .bytes(Data([1, 2])), .bytes(Data("s3cret".utf8)), .string("text/plain")]),
        .variant(.variant(.uint32(3))),
        .variant(.array(elementSignature: "(oayays)", [])),
        .array(elementSignature: "{oa{ss}}", [.dictEntry(.objectPath("/a"), .stringDictionary(["k": "v"]))]),
        .array(elementSignature: "y", [.byte(1)]),
    ]

    @Test func everyKindRoundTripsThroughAHandler() throws {
        try withPrivateBus { bus in
            let server = try bus.connect()
            let calls = Inbox<DBusMethodCall>()
            try serveEcho(on: server, calls: calls)
            let running = Running(server)
            defer { running.stop() }
            let client = try bus.connect()
            let reply = try client.call(destination: server.uniqueName, path: "/test/item/1", interface: testInterface,
                                        member: "Echo", arguments: Self.everyKind)
            // `ay` written as an array of bytes comes back as .bytes, as every `ay` does.
            var expected = Self.everyKind
            expected[expected.count - 1] = .bytes(Data([1]))
            #expect(reply == expected)
            let call = try #require(calls.next())
            #expect(call.sender == client.uniqueName)
            #expect(call.path == "/test/item/1")
            #expect(call.interface == testInterface)
            #expect(call.member == "Echo")
            #expect(call.signature == Self.everyKind.map(\.signature).joined())
            #expect(call.arguments == expected)
        }
    }

    @Test func emptyArraysAndDictionariesKeepTheirSignatures() throws {
        let empties: [DBusValue] = [
            .array(elementSignature: "{ss}", []), .array(elementSignature: "s", []), .bytes(Data()),
            .array(elementSignature: "(oayays)", []), .array(elementSignature: "{sv}", []),
            .variant(.array(elementSignature: "{ss}", [])), .array(elementSignature: "aa{sv}", []),
        ]
        let roundTrip = try DBusWireFormat.roundTrip(empties)
        #expect(roundTrip.signature == "a{ss}asaya(oayays)a{sv}vaaa{sv}")
        #expect(roundTrip.arguments == empties)
        try withPrivateBus { bus in
            let server = try bus.connect()
            let calls = Inbox<DBusMethodCall>()
            try serveEcho(on: server, calls: calls)
            let running = Running(server)
            defer { running.stop() }
            let reply = try bus.connect().call(destination: server.uniqueName, path: "/test", interface: testInterface,
                                               member: "Echo", arguments: empties)
            #expect(reply == empties)
            #expect(calls.next()?.signature == "a{ss}asaya(oayays)a{sv}vaaa{sv}")
        }
    }

    /// Work a handler leaves with `afterReplies` runs after its reply reached the caller, and
    /// before the next call is handled; from outside the loop it runs at once.
    @Test func workLeftForAfterTheReplyRunsOnceItIsOut() throws {
        try withPrivateBus { bus in
            let server = try bus.connect()
            let gate = DispatchSemaphore(value: 0)
            let events = Inbox<String>()
            try server.serve(subtree: "/test") { call in
                if call.member == "First" {
                    server.afterReplies {
                        // Held until the caller has the reply: were this run before the reply
                        // was sent, the caller would see "work done" first.
                        _ = gate.wait(timeout: .now() + 10)
                        events.put("work done")
                    }
                } else {
                    events.put("second call")
                }
                return .values([])
            }
            let running = Running(server)
            defer { running.stop() }
            let client = try bus.connect()
            _ = try client.call(destination: server.uniqueName, path: "/test", interface: testInterface, member: "First", arguments: [])
            events.put("first reply")
            gate.signal()
            _ = try client.call(destination: server.uniqueName, path: "/test", interface: testInterface, member: "Second", arguments: [])
            #expect([events.next(), events.next(), events.next()] == ["first reply", "work done", "second call"])
        }
        let outside = Locked(false)
        try withPrivateBus { bus in
            try bus.connect().afterReplies { outside.withLock { $0 = true } }
        }
        #expect(outside.withLock { $0 })
    }

    /// A handler that expects the caller back at once (`expectFollowUp`) changes nothing the
    /// caller sees: the call that follows is answered, so is one that comes after the loop
    /// stopped watching and slept, and the loop still stops when asked while watching.
    @Test func callsAfterAnExpectedFollowUpAreAnsweredEarlyOrLate() throws {
        try withPrivateBus { bus in
            let server = try bus.connect()
            let handled = Inbox<String>()
            try server.serve(subtree: "/test") { call in
                if call.member == "Search" {
                    server.afterReplies { server.expectFollowUp() }
                }
                handled.put(call.member)
                return .values([.string(call.member)])
            }
            let running = Running(server)
            let client = try bus.connect()
            func call(_ member: String) throws -> [DBusValue] {
                try client.call(destination: server.uniqueName, path: "/test", interface: testInterface, member: member, arguments: [])
            }
            #expect(try call("Search") == [.string("Search")])
            #expect(try call("Fetch") == [.string("Fetch")])
            #expect(try call("Search") == [.string("Search")])
            // Well past the window: the loop has gone back to sleep and wakes for this call.
            Thread.sleep(forTimeInterval: 20 * Double(DBusConnection.followUpWindow.components.attoseconds) / 1e18)
            #expect(try call("Fetch") == [.string("Fetch")])
            #expect(try call("Search") == [.string("Search")])
            running.stop()
            #expect([handled.next(), handled.next(), handled.next(), handled.next(), handled.next()] == ["Search", "Fetch", "Search", "Fetch", "Search"])
        }
    }

    /// The loop watches after a call that expects a follow-up (where it has more than one
    /// processor to run on), and not once the watch is turned off; calls are answered either way.
    @Test func theFollowUpWatchCanBeTurnedOff() throws {
        try withPrivateBus { bus in
            let server = try bus.connect()
            try server.serve(subtree: "/test") { call in
                if call.member == "Search" { server.afterReplies { server.expectFollowUp() } }
                return .values([.string(call.member)])
            }
            let running = Running(server)
            defer { running.stop() }
            let client = try bus.connect()
            func lookup() throws {
                for member in ["Search", "Fetch"] {
                    #expect(try client.call(destination: server.uniqueName, path: "/test", interface: testInterface,
                                            member: member, arguments: []) == [.string(member)])
                }
            }
            #expect(server.watchesForFollowUps)
            try lookup()
            try lookup()
            let watched = server.followUpWatchCount
            #expect(DBusConnection.followUpWatchPays ? watched >= 1 : watched == 0)
            server.watchesForFollowUps = false
            try lookup()
            try lookup()
            #expect(server.followUpWatchCount == watched)
        }
    }

    @Test func anErrorReplyIsThrownWithItsNameAndMessage() throws {
        try withPrivateBus { bus in
            let server = try bus.connect()
            try serveEcho(on: server)
            let running = Running(server)
            defer { running.stop() }
            let client = try bus.connect()
            #expect(throws: DBusError(name: "org.example.Error.Refused", message: "refused: /test/x")) {
                try client.call(destination: server.uniqueName, path: "/test/x", interface: testInterface, member: "Fail", arguments: [])
            }
            // A reply the handler got wrong is sent as Failed, not dropped (the caller would wait).
            for member in ["Bad", "BadError"] {
                let error = try #require(throws: DBusError.self) {
                    try client.call(destination: server.uniqueName, path: "/test", interface: testInterface, member: member, arguments: [])
                }
                #expect(error.name == "org.freedesktop.DBus.Error.Failed")
            }
        }
    }

    @Test func aCallGoesToTheDeepestSubtreeHoldingItsPath() throws {
        try withPrivateBus { bus in
            let server = try bus.connect()
            try server.serve(subtree: "/a") { _ in .values([.string("a")]) }
            try server.serve(subtree: "/a/b") { _ in .values([.string("a/b")]) }
            let running = Running(server)
            defer { running.stop() }
            let client = try bus.connect()
            func answer(_ path: String) throws -> [DBusValue] {
                try client.call(destination: server.uniqueName, path: path, interface: testInterface, member: "Which", arguments: [])
            }
            #expect(try answer("/a") == [.string("a")])
            #expect(try answer("/a/b") == [.string("a/b")])
            #expect(try answer("/a/b/c/d") == [.string("a/b")])
            #expect(try answer("/a/bc") == [.string("a")])
            #expect(throws: DBusError.self) { try answer("/ab") }
            // The parents of a served path are still introspected by libdbus, listing it.
            let document = try client.call(destination: server.uniqueName, path: "/", interface: "org.freedesktop.DBus.Introspectable",
                                           member: "Introspect", arguments: [])
            guard case .string(let xml)? = document.first else { Issue.record("no introspection document"); return }
            #expect(xml.contains("<node name=\"a\""))
        }
    }

    @Test func callsOutsideTheSubtreeAreAnsweredByLibdbus() throws {
        try withPrivateBus { bus in
            let server = try bus.connect()
            let calls = Inbox<DBusMethodCall>()
            try serveEcho(on: server, calls: calls)
            let running = Running(server)
            defer { running.stop() }
            let client = try bus.connect()
            let error = try #require(throws: DBusError.self) {
                try client.call(destination: server.uniqueName, path: "/elsewhere", interface: testInterface, member: "Echo", arguments: [])
            }
            #expect(["org.freedesktop.DBus.Error.UnknownObject", "org.freedesktop.DBus.Error.UnknownMethod"].contains(error.name))
            // A sibling whose name only starts like the subtree's is outside it too.
            #expect(throws: DBusError.self) {
                try client.call(destination: server.uniqueName, path: "/testing", interface: testInterface, member: "Echo", arguments: [])
            }
            // org.freedesktop.DBus.Peer is answered by libdbus, anywhere, without the handler.
            #expect(try client.call(destination: server.uniqueName, path: "/test", interface: "org.freedesktop.DBus.Peer",
                                    member: "Ping", arguments: []) == [])
            let machine = try client.call(destination: server.uniqueName, path: "/", interface: "org.freedesktop.DBus.Peer",
                                          member: "GetMachineId", arguments: [])
            #expect(machine.count == 1 && machine.first?.stringValue?.count == 32)
            #expect(calls.all.isEmpty)
        }
    }

    @Test func requestNameAndReplacement() throws {
        try withPrivateBus { bus in
            let first = try bus.connect()
            let lost = Inbox<String>()
            first.onNameLost { lost.put($0) }
            let running = Running(first)
            defer { running.stop() }
            #expect(try first.requestName(testName, replace: false, allowReplacement: true) == .primaryOwner)
            #expect(try first.requestName(testName, replace: false, allowReplacement: true) == .alreadyOwner)
            let second = try bus.connect()
            #expect(try second.requestName(testName, replace: false, allowReplacement: true) == .exists)
            #expect(lost.next(within: 0.2) == nil)
            #expect(try second.requestName(testName, replace: true, allowReplacement: false) == .primaryOwner)
            #expect(lost.next() == testName)
            // The second does not allow replacement: the first cannot take it back.
            #expect(try first.requestName(testName, replace: true, allowReplacement: true) == .exists)
            #expect(throws: DBusError.self) { try first.requestName("not a name", replace: false, allowReplacement: false) }
        }
    }

    @Test func peerDisconnectionIsReported() throws {
        try withPrivateBus { bus in
            let server = try bus.connect()
            let gone = Inbox<String>()
            server.onPeerDisconnected { gone.put($0) }
            try serveEcho(on: server)
            let running = Running(server)
            defer { running.stop() }
            let client = try bus.connect()
            _ = try client.call(destination: server.uniqueName, path: "/test", interface: testInterface, member: "Echo", arguments: [])
            let name = client.uniqueName
            client.close()
            #expect(gone.next() == name)
            #expect(!client.isConnected)
            #expect(throws: DBusError.self) {
                try client.call(destination: server.uniqueName, path: "/test", interface: testInterface, member: "Echo", arguments: [])
            }
        }
    }

    @Test func signalsReachSubscribers() throws {
        try withPrivateBus { bus in
            let server = try bus.connect()
            let client = try bus.connect()
            let received = Inbox<DBusSignal>()
            try client.subscribe(interface: "org.freedesktop.Secret.Service", member: "ItemCreated") { received.put($0) }
            let running = Running(client)
            defer { running.stop() }
            // Another signal of the interface, and one of another interface, are not delivered.
            try server.emitSignal(path: "/org/freedesktop/secrets", interface: "org.freedesktop.Secret.Service",
                                  member: "ItemDeleted", arguments: [.objectPath("/x")])
            try server.emitSignal(path: "/org/freedesktop/secrets", interface: "org.example.Other", member: "ItemCreated", arguments: [])
            // Emitted from a thread that is not any connection's dispatch thread.
            let item = DBusValue.objectPath("/org/freedesktop/secrets/collection/login/1")
            try server.emitSignal(path: "/org/freedesktop/secrets/collection/login", interface: "org.freedesktop.Secret.Service",
                                  member: "ItemCreated", arguments: [item])
            let signal = try #require(received.next())
            #expect(signal.sender == server.uniqueName)
            #expect(signal.path == "/org/freedesktop/secrets/collection/login")
            #expect(signal.member == "ItemCreated")
            #expect(signal.signature == "o")
            #expect(signal.arguments == [item])
            #expect(received.next(within: 0.3) == nil)
            #expect(throws: DBusError.self) {
                try server.emitSignal(path: "/bad/", interface: "org.example.Other", member: "X", arguments: [])
            }
        }
    }

    @Test func stopEndsRunAndAStopBeforeRunIsKept() throws {
        try withPrivateBus { bus in
            let connection = try bus.connect()
            connection.stop()
            connection.run()              // returns at once
            let running = Running(connection)
            Thread.sleep(forTimeInterval: 0.1)
            #expect(running.stop())
        }
    }
}
