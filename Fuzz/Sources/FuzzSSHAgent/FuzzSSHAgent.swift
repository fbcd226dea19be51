import Foundation
import FuzzSupport
@testable import KeychainSSHAgent

/// The SSH agent's message parser on the fuzzer's bytes, as one message body (type byte and
/// contents): a body that parses must parse again to the same request once written back (for
/// the requests whose encoding is ours to write), and a private key it carries is tried as a
/// `SecKey`. Nothing reaches a keychain. A crash or a sanitizer report is a finding; a parse
/// error is not.
@_cdecl("FuzzSSHAgent_main")
public func fuzzSSHAgentMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzSSHAgent)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSSHAgent(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let body = Array(UnsafeBufferPointer(start: data, count: size))
    guard let request = try? SSHAgentRequest.parse(body) else { return 0 }
    var writer = SSHWireWriter()
    switch request {
    case .sign(let blob, let signed, let flags):
        writer.writeByte(SSHAgentMessageNumber.signRequest)
        writer.writeString(blob)
        writer.writeString(signed)
        writer.writeUInt32(flags)
    case .removeIdentity(let blob):
        writer.writeByte(SSHAgentMessageNumber.removeIdentity)
        writer.writeString(blob)
    case .lock(let passphrase), .unlock(let passphrase):
        writer.writeByte(body[0])
        writer.writeString(passphrase)
    case .addIdentity(let key, _, _):
        if let made = key.secKey(), SSHKeyEncoding.publicKeyBlob(of: made) == nil {
            fatalError("a key the agent accepted has no SSH public key blob")
        }
        return 0
    default:
        return 0
    }
    guard (try? SSHAgentRequest.parse(writer.bytes)) == request else {
        fatalError("a request written back does not parse to itself")
    }
    return 0
}
