#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Crypto

/// The plaintext of a secret blob: a presence flag, the length, the bytes, and zero padding to a
/// multiple of 32 bytes, so that the file does not reveal a secret's exact length.
enum SecretCodec {
    static func encode(_ secret: Data?) -> Data {
        let bytes = secret ?? Data()
        let length = 5 + bytes.count
        // Built in a byte array and turned into Data once (appends to Data cost more).
        var out: [UInt8] = []
        out.reserveCapacity(length + 31)
        out.append(secret == nil ? 0 : 1)
        withUnsafeBytes(of: UInt32(bytes.count).littleEndian) { out += $0 }
        out.append(bytesOf: bytes)
        out += repeatElement(0, count: (32 - length % 32) % 32)
        return Data(out)
    }

    static func decode(_ plaintext: Data) throws(KeychainStoreError) -> Data? {
        var reader = ByteReader(plaintext)
        let present = try reader.byte()
        let length = Int(try reader.uint32())
        let bytes = try reader.bytes(length)
        return present == 0 ? nil : bytes
    }
}

/// Current time as Core Foundation counts it.
func referenceNow() -> Double { Date().timeIntervalSinceReferenceDate }

/// The item digest (`sha1`): SHA-1 over the item's hashed attributes.
func itemDigest(_ attributes: [String: AttributeValue], schema: ItemSchema) -> AttributeValue {
    .data(Data(Insecure.SHA1.hash(data: AttributeCodec.encode(attributes, sortedNames: schema.hashedNames))))
}
