import Foundation
import FuzzSupport
@testable import KeychainDBus

/// Bytes as a whole D-Bus message, as a peer could send one: libdbus's dbus_message_demarshal
/// parses and validates it, and when it yields a message our decoder turns its arguments into
/// `DBusValue`s. Besides crashes, one property is checked (a `fatalError` when broken): whatever
/// decodes is accepted by the encoder and re-encodes to the same signature and the same values.
/// Bytes that are not a message are read instead as a tree of values built by the encoder's
/// callers (see ``ValueBuilder``), with the converse property: whatever the encoder accepts,
/// libdbus neither aborts on nor refuses when the message is demarshalled again (the bus would
/// disconnect a peer that sent it), and it decodes to the same values.
/// libdbus itself is not instrumented, so coverage guides the fuzzer through our decoder only.
/// The program's entry point under SwiftPM (see ``runFuzzer(_:_:_:)``).
@_cdecl("FuzzDBusMessage_main")
public func fuzzDBusMessageMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzDBusMessage)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDBusMessage(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    // Refused bytes, and messages with arguments the codec does not model (file descriptors),
    // are fine: only a trap would not be.
    guard let message = try? DBusWireFormat.demarshal(Data(bytes: data, count: size)) else {
        fuzzEncoder(FuzzInput(data, size))
        return 0
    }
    guard message.arguments.map(\.signature).joined() == message.signature else {
        fatalError("decoded values do not have the message's signature \(message.signature)")
    }
    let again: (signature: String, arguments: [DBusValue])
    do {
        again = try DBusWireFormat.roundTrip(message.arguments)
    } catch {
        fatalError("arguments of signature \(message.signature) decoded but do not re-encode: \(error)")
    }
    guard again.signature == message.signature else {
        fatalError("re-encoding changed the signature \(message.signature) into \(again.signature)")
    }
    guard zip(again.arguments, message.arguments).allSatisfy(same), again.arguments.count == message.arguments.count else {
        fatalError("re-encoding changed the values of signature \(message.signature)")
    }
    return 0
}

/// Equality that compares doubles by their bits, so that a NaN equals itself, and takes an
/// array of bytes for the `.bytes` every `ay` decodes to.
private func same(_ a: DBusValue, _ b: DBusValue) -> Bool {
    switch (a, b) {
    case (.array("y", let xs), .bytes(let data)), (.bytes(let data), .array("y", let xs)):
        xs.count == data.count && zip(xs, data).allSatisfy { $0 == .byte($1) }
    case (.double(let x), .double(let y)): x.bitPattern == y.bitPattern
    case (.array(let s, let xs), .array(let t, let ys)): s == t && xs.count == ys.count && zip(xs, ys).allSatisfy(same)
    case (.structure(let xs), .structure(let ys)): xs.count == ys.count && zip(xs, ys).allSatisfy(same)
    case (.dictEntry(let k, let v), .dictEntry(let l, let w)): same(k, l) && same(v, w)
    case (.variant(let x), .variant(let y)): same(x, y)
    default: a == b
    }
}

private func fuzzEncoder(_ input: FuzzInput) {
    var builder = ValueBuilder(input: input)
    let values = (0..<builder.input.choose(4)).map { _ in builder.value(depth: 0) }
    guard let bytes = try? DBusWireFormat.marshalSignal(path: "/a", interface: "a.b", member: "C", arguments: values) else { return }
    guard let message = try? DBusWireFormat.demarshal(bytes) else {
        fatalError("the encoder accepted values of signature \(values.map(\.signature).joined()) that libdbus refuses on receipt")
    }
    guard message.arguments.count == values.count, zip(message.arguments, values).allSatisfy(same) else {
        fatalError("values of signature \(message.signature) changed on the way through a message: \(values) became \(message.arguments)")
    }
}

/// Builds values from fuzzer bytes, including the invalid ones a buggy caller could build:
/// element signatures that do not match, dict entries out of place, empty structures, deep
/// nesting, strings with NUL, malformed paths and signatures.
private struct ValueBuilder {
    var input: FuzzInput
    private let pathAlphabet = Array("/a_0-/".utf8)
    private let signatureAlphabet = Array("ybnqiuxtdsogavh(){}".utf8)
    /// Values made so far, copies included: repeating an array's template would otherwise grow
    /// the tree exponentially with its depth.
    private var nodes = 0

    init(input: FuzzInput) { self.input = input }

    mutating func value(depth: Int) -> DBusValue {
        nodes += 1
        // Deep trees come from long runs of container choices; past 80 levels, or 5,000 values,
        // only leaves.
        let kind = depth > 80 || nodes > 5_000 ? input.choose(12) : input.choose(19)
        switch kind {
        case 0: return .byte(input.byte())
        case 1: return .boolean(input.byte() & 1 == 1)
        case 2: return .int16(Int16(truncatingIfNeeded: input.uint64()))
        case 3: return .uint32(UInt32(truncatingIfNeeded: input.uint64()))
        case 4: return .int64(Int64(bitPattern: input.uint64()))
        case 5: return .double(Double(bitPattern: input.uint64()))
        case 6: return .string(String(decoding: input.bytes(input.choose(8)), as: UTF8.self))
        case 7: return .objectPath(String(decoding: (0..<input.choose(6)).map { _ in pathAlphabet[input.choose(pathAlphabet.count)] }, as: UTF8.self))
        case 8: return .signature(text(signatureAlphabet, input.choose(8)))
        case 9: return .bytes(Data(input.bytes(input.choose(8))))
        case 10: return .uint16(UInt16(truncatingIfNeeded: input.uint64()))
        case 11: return .uint64(input.uint64())
        case 12, 13:
            // Elements like a template (valid), or of a signature made up from bytes.
            let template = value(depth: depth + 1)
            let elementSignature = input.choose(4) == 0 ? text(signatureAlphabet, 1 + input.choose(4)) : template.signature
            var elements: [DBusValue] = input.choose(3) == 0 ? [] : [template]
            let copies = size(template)
            for _ in 0..<input.choose(3) where nodes + copies <= 5_000 {
                if input.choose(3) == 0 {
                    elements.append(value(depth: depth + 1))
                } else {
                    elements.append(template)
                    nodes += copies
                }
            }
            return .array(elementSignature: elementSignature, elements)
        case 14:
            return .array(elementSignature: "{sv}", [.dictEntry(.string("k"), .variant(value(depth: depth + 1)))])
        case 15: return .dictEntry(value(depth: depth + 1), value(depth: depth + 1))
        case 16: return .structure((0..<input.choose(4)).map { _ in value(depth: depth + 1) })
        default: return .variant(value(depth: depth + 1))
        }
    }

    private func size(_ value: DBusValue) -> Int {
        switch value {
        case .array(_, let elements), .structure(let elements): 1 + elements.reduce(0) { $0 + size($1) }
        case .dictEntry(let key, let value): 1 + size(key) + size(value)
        case .variant(let inner): 1 + size(inner)
        default: 1
        }
    }

    private mutating func text(_ alphabet: [UInt8], _ count: Int) -> String {
        String(decoding: (0..<count).map { _ in alphabet[input.choose(alphabet.count)] }, as: UTF8.self)
    }
}
