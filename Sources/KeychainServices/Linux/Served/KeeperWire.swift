#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Foundation
import KeychainStore

/// The bytes of ``KeeperValue``s: one tag byte, then the value. Numbers are 8 bytes big-endian
/// (reals as their IEEE bit pattern), strings and data a 4-byte length and the bytes, arrays a
/// 4-byte count and the elements, dictionaries a count and key–value pairs.
///
/// The reader trusts nothing: every length and count is checked against the bytes left before
/// anything is allocated, nesting stops at ``maximumDepth``, and strings must be UTF-8.
enum KeeperWire {
    /// Deeper than any SecItem dictionary (a query holds an item list of identities at most
    /// three levels down), shallow enough that reading never runs out of stack.
    static let maximumDepth = 16

    enum Tag: UInt8 {
        case null = 0, falseValue, trueValue, integer, unsigned, real, string, data, date, array, dictionary
        case accessControl, certificate, key, identity, authenticationContext, policy
    }

    struct Writer {
        private(set) var bytes: [UInt8] = []

        mutating func byte(_ value: UInt8) { bytes.append(value) }

        mutating func word(_ value: UInt32) {
            bytes.append(contentsOf: [UInt8(value >> 24), UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff), UInt8(value & 0xff)])
        }

        mutating func long(_ value: UInt64) {
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(value >> UInt64(shift) & 0xff)) }
        }

        mutating func blob<C: Collection>(_ value: C) where C.Element == UInt8 {
            word(UInt32(value.count))
            bytes.append(contentsOf: value)
        }

        mutating func value(_ value: KeeperValue) {
            switch value {
            case .null: tag(.null)
            case .boolean(let bool): tag(bool ? .trueValue : .falseValue)
            case .integer(let integer): tag(.integer); long(UInt64(bitPattern: integer))
            case .unsigned(let unsigned): tag(.unsigned); long(unsigned)
            case .real(let real): tag(.real); long(real.bitPattern)
            case .string(let string): tag(.string); blob(Array(string.utf8))
            case .data(let data): tag(.data); blob(data)
            case .date(let seconds): tag(.date); long(seconds.bitPattern)
            case .array(let elements):
                tag(.array)
                word(UInt32(elements.count))
                for element in elements { self.value(element) }
            case .dictionary(let entries):
                tag(.dictionary)
                word(UInt32(entries.count))
                for entry in entries {
                    self.value(entry.key)
                    self.value(entry.value)
                }
            case .accessControl(let protection, let flags):
                tag(.accessControl); blob(Array(protection.utf8)); long(flags)
            case .certificate(let der): tag(.certificate); blob(der)
            case .key(let key): tag(.key); self.key(key)
            case .identity(let der, let key): tag(.identity); blob(der); self.key(key)
            case .authenticationContext(let interactionNotAllowed):
                tag(.authenticationContext); byte(interactionNotAllowed ? 1 : 0)
            case .policy(let kind):
                tag(.policy)
                switch kind {
                case .basicX509:
                    byte(0)
                case .ssl(let server, let hostname):
                    // 1: a server's, 2: a client's; then the hostname or null.
                    byte(server ? 1 : 2)
                    self.value(hostname.map { .string($0) } ?? .null)
                case .revocation(let flags):
                    byte(3); long(UInt64(flags))
                }
            }
        }

        private mutating func tag(_ tag: Tag) { bytes.append(tag.rawValue) }

        private mutating func key(_ key: KeeperKey) {
            // Bit 0: RSA, bit 1: private, bit 2: Ed25519 (neither: EC).
            byte((key.family == .rsa ? 1 : 0) | (key.isPrivate ? 2 : 0) | (key.family == .ed25519 ? 4 : 0))
            blob(key.externalRepresentation)
            guard let attributes = key.storedAttributes else { byte(0); return }
            byte(1)
            blob(key.persistentReference ?? Data())
            // In name order, so that one key always gives the same bytes.
            word(UInt32(attributes.count))
            for (name, attribute) in attributes.sorted(by: { $0.key < $1.key }) {
                blob(Array(name.utf8))
                value(Self.value(of: attribute))
            }
        }

        private static func value(of attribute: AttributeValue) -> KeeperValue {
            switch attribute {
            case .string(let string): return .string(string)
            case .data(let data): return .data(data)
            case .integer(let integer): return .integer(integer)
            case .real(let real): return .real(real)
            case .date(let seconds): return .date(seconds)
            }
        }
    }

    struct Reader {
        private let bytes: [UInt8]
        private var offset: Int

        init(_ bytes: [UInt8], from offset: Int = 0) {
            self.bytes = bytes
            self.offset = offset
        }

        var isAtEnd: Bool { offset == bytes.count }
        private var remaining: Int { bytes.count - offset }

        mutating func byte() throws(KeeperValueError) -> UInt8 {
            guard remaining >= 1 else { throw KeeperValue.malformed("a value cut short") }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func word() throws(KeeperValueError) -> UInt32 {
            guard remaining >= 4 else { throw KeeperValue.malformed("a value cut short") }
            defer { offset += 4 }
            return bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
        }

        mutating func long() throws(KeeperValueError) -> UInt64 {
            guard remaining >= 8 else { throw KeeperValue.malformed("a value cut short") }
            defer { offset += 8 }
            return bytes[offset..<offset + 8].reduce(0) { $0 << 8 | UInt64($1) }
        }

        mutating func blob() throws(KeeperValueError) -> ArraySlice<UInt8> {
            let length = Int(try word())
            guard length <= remaining else { throw KeeperValue.malformed("a length past the message's end") }
            defer { offset += length }
            return bytes[offset..<offset + length]
        }

        mutating func string() throws(KeeperValueError) -> String {
            guard let string = String(validating: try blob(), as: UTF8.self) else { throw KeeperValue.malformed("a string that is not UTF-8") }
            return string
        }

        /// A count of things each at least `smallest` bytes long, checked against what is left.
        private mutating func count(smallest: Int) throws(KeeperValueError) -> Int {
            let count = Int(try word())
            guard count <= remaining / smallest else { throw KeeperValue.malformed("a count past the message's end") }
            return count
        }

        mutating func value(depth: Int = 0) throws(KeeperValueError) -> KeeperValue {
            guard depth < KeeperWire.maximumDepth else { throw KeeperValue.malformed("values nested too deep") }
            guard let tag = Tag(rawValue: try byte()) else { throw KeeperValue.malformed("a value of an unknown kind") }
            switch tag {
            case .null: return .null
            case .falseValue: return .boolean(false)
            case .trueValue: return .boolean(true)
            case .integer: return .integer(Int64(bitPattern: try long()))
            case .unsigned: return .unsigned(try long())
            case .real: return .real(Double(bitPattern: try long()))
            case .string: return .string(try string())
            case .data: return .data(Data(try blob()))
            case .date: return .date(Double(bitPattern: try long()))
            case .array:
                let count = try count(smallest: 1)
                var elements: [KeeperValue] = []
                elements.reserveCapacity(count)
                for _ in 0..<count { elements.append(try value(depth: depth + 1)) }
                return .array(elements)
            case .dictionary:
                let count = try count(smallest: 2)
                var entries: [KeeperEntry] = []
                entries.reserveCapacity(count)
                for _ in 0..<count {
                    entries.append(KeeperEntry(key: try value(depth: depth + 1), value: try value(depth: depth + 1)))
                }
                return .dictionary(entries)
            case .accessControl: return .accessControl(protection: try string(), flags: try long())
            case .certificate: return .certificate(der: Data(try blob()))
            case .key: return .key(try key(depth: depth))
            case .identity: return .identity(certificate: Data(try blob()), key: try key(depth: depth))
            case .authenticationContext:
                switch try byte() {
                case 0: return .authenticationContext(interactionNotAllowed: false)
                case 1: return .authenticationContext(interactionNotAllowed: true)
                default: throw KeeperValue.malformed("an authentication context")
                }
            case .policy:
                switch try byte() {
                case 0: return .policy(.basicX509)
                case let kind where kind == 1 || kind == 2:
                    switch try value(depth: depth + 1) {
                    case .null: return .policy(.ssl(server: kind == 1, hostname: nil))
                    case .string(let hostname): return .policy(.ssl(server: kind == 1, hostname: hostname))
                    default: throw KeeperValue.malformed("a policy's hostname")
                    }
                case 3: return .policy(.revocation(flags: CFOptionFlags(truncatingIfNeeded: try long())))
                default: throw KeeperValue.malformed("a policy")
                }
            }
        }

        private mutating func key(depth: Int) throws(KeeperValueError) -> KeeperKey {
            let kind = try byte()
            guard kind & ~7 == 0, kind & 5 != 5 else { throw KeeperValue.malformed("a key") }
            let family: KeyFamily = kind & 1 != 0 ? .rsa : kind & 4 != 0 ? .ed25519 : .ec
            var key = KeeperKey(family: family, isPrivate: kind & 2 != 0, externalRepresentation: Data(try blob()))
            switch try byte() {
            case 0: return key
            case 1: break
            default: throw KeeperValue.malformed("a key")
            }
            key.persistentReference = Data(try blob())
            let count = try count(smallest: 5)
            var attributes: [String: AttributeValue] = [:]
            for _ in 0..<count {
                let name = try string()
                let attribute: AttributeValue
                switch try value(depth: depth + 1) {
                case .string(let string): attribute = .string(string)
                case .data(let data): attribute = .data(data)
                case .integer(let integer): attribute = .integer(integer)
                case .real(let real): attribute = .real(real)
                case .date(let seconds): attribute = .date(seconds)
                default: throw KeeperValue.malformed("a key's attribute")
                }
                guard attributes.updateValue(attribute, forKey: name) == nil else { throw KeeperValue.malformed("a key's attribute named twice") }
            }
            key.storedAttributes = attributes
            return key
        }
    }
}
#endif
