import Foundation
import KeychainTestSupport

/// Python's secretstorage (Debian's python3-secretstorage, the client code behind the `keyring`
/// package) driven line by line over stdin and stdout, as the other end of a session. It runs
/// under /usr/bin/python3, the interpreter Debian's package belongs to, whatever python3 comes
/// first on PATH.
///
/// Commands, one line each, one line of answer each:
/// - `client` → a new `secretstorage.dhcrypto.Session`; answers its public key as
///   secretstorage sends it in `OpenSession` (`int_to_bytes`, no leading zeros), in hex.
/// - `client-for <x>` → a session whose private key is searched so that the secret it shares
///   with the server exponent `x` has a zero first byte (the case left-padding is for).
/// - `server <key>` → `set_server_public_key` with our reply, parsed as secretstorage parses it.
/// - `encrypt <secret>` → `util.format_secret`: answers `<iv> <ciphertext>`.
/// - `decrypt <iv> <ciphertext>` → item.py's `get_secret` arithmetic: answers `= <secret>`.
/// - `kat <mode>` → a known answer computed with `pow()`, `hmac` and `cryptography` only, none
///   of it secretstorage's session code: `<x> <client public> <server public> <iv> <plain>
///   <ciphertext>`. Modes choose the exponents so that an edge case happens: `random`,
///   `short-server` (our public key has a zero first byte), `short-shared` (the shared secret
///   has), `short-client` (the client's public key is under 128 bytes).
/// All values are hex.
final class SecretStoragePeer {
    static let interpreter = "/usr/bin/python3"

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()
    private var buffer = Data()

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init() throws {
        process.executableURL = URL(fileURLWithPath: Self.interpreter)
        process.arguments = ["-u", "-c", Self.script]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        do {
            try process.run()
        } catch {
            throw Failure(description: "cannot start \(Self.interpreter) (\(error)); "
                + "scripts/install-system-packages.sh installs it with python3-secretstorage")
        }
        let first = try readLine()
        guard first == "ready" else {
            throw Failure(description: "\(Self.interpreter) cannot load secretstorage: \(first) "
                + "(install Debian's python3-secretstorage: scripts/install-system-packages.sh)")
        }
    }

    deinit {
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
        _ = process.waitForExit()
    }

    /// Sends one command and returns the answer's words.
    func ask(_ words: String...) throws -> [String] {
        let line = words.joined(separator: " ") + "\n"
        do {
            try input.fileHandleForWriting.write(contentsOf: Data(line.utf8))
        } catch {
            throw Failure(description: "secretstorage peer went away: \(stderrText())")
        }
        let answer = try readLine()
        if answer.hasPrefix("error ") { throw Failure(description: "secretstorage peer: \(answer)") }
        return answer.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
    }

    private func readLine() throws -> String {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer = Data(buffer[buffer.index(after: newline)...])
                return line
            }
            let more = output.fileHandleForReading.availableData
            if more.isEmpty {
                let text = stderrText()
                throw Failure(description: text.isEmpty ? "secretstorage peer ended without answering"
                                                        : text)
            }
            buffer.append(more)
        }
    }

    private func stderrText() -> String {
        if process.isRunning { process.terminate() }
        _ = process.waitForExit()
        let data = (try? errors.fileHandleForReading.readToEnd()) ?? nil
        return String(decoding: data ?? Data(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static let script = #"""
import os, sys, hmac, hashlib
try:
    from secretstorage import dhcrypto, util
    from secretstorage.dhcrypto import DH_PRIME_1024 as P, int_to_bytes
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
    from cryptography.hazmat.primitives import padding
    from cryptography.hazmat.backends import default_backend
except ImportError as error:
    print("missing module: %s" % error, flush=True)
    sys.exit(3)

TOP = 1 << (1024 - 8)   # values below it have a zero first byte when written as 128 bytes
session = None

def rand():
    return int.from_bytes(os.urandom(128), "big")

def known_answer(mode):
    x, y = rand(), rand()
    if mode == "short-server":
        while pow(2, x, P) >= TOP: x = rand()
    elif mode == "short-shared":
        while pow(pow(2, x, P), y, P) >= TOP: y = rand()
    elif mode == "short-client":
        while pow(2, y, P) >= TOP: y = rand()
    server_public = pow(2, x, P).to_bytes(128, "big")
    client_public = pow(2, y, P)
    client_bytes = client_public.to_bytes((client_public.bit_length() + 7) // 8, "big")
    shared = pow(client_public, x, P).to_bytes(128, "big")
    prk = hmac.new(b"", shared, hashlib.sha256).digest()          # HKDF-Extract, empty salt
    key = hmac.new(prk, b"\x01", hashlib.sha256).digest()[:16]     # HKDF-Expand, empty info
    iv, plain = os.urandom(16), os.urandom(1 + os.urandom(1)[0] % 40)
    padder = padding.PKCS7(128).padder()
    padded = padder.update(plain) + padder.finalize()
    encryptor = Cipher(algorithms.AES(key), modes.CBC(iv), default_backend()).encryptor()
    ciphertext = encryptor.update(padded) + encryptor.finalize()
    xb = x.to_bytes(128, "big")
    return [xb.hex(), client_bytes.hex(), server_public.hex(), iv.hex(), plain.hex(), ciphertext.hex()]

print("ready", flush=True)
for line in sys.stdin:
    words = line.rstrip("\n").split(" ")
    try:
        command = words[0]
        if command == "client":
            session = dhcrypto.Session()
            answer = [int_to_bytes(session.my_public_key).hex()]
        elif command == "client-for":
            server_public = pow(2, int(words[1], 16), P)
            session = dhcrypto.Session()
            while pow(server_public, session.my_private_key, P) >= TOP:
                session.my_private_key = rand()
            session.my_public_key = pow(2, session.my_private_key, P)
            answer = [int_to_bytes(session.my_public_key).hex()]
        elif command == "server":
            value = bytes.fromhex(words[1])
            session.set_server_public_key(int.from_bytes(value, "big"))   # as util.open_session
            session.object_path = "/org/freedesktop/secrets/session/s1"
            answer = ["ok"]
        elif command == "encrypt":
            _, iv, ciphertext, _ = util.format_secret(session, bytes.fromhex(words[1]), "text/plain")
            answer = [bytes(iv).hex(), bytes(ciphertext).hex()]
        elif command == "decrypt":
            # item.py, Item.get_secret
            aes = algorithms.AES(session.aes_key)
            decryptor = Cipher(aes, modes.CBC(bytes.fromhex(words[1])), default_backend()).decryptor()
            padded = decryptor.update(bytes.fromhex(words[2])) + decryptor.finalize()
            answer = ["=", padded[:-padded[-1]].hex()]
        elif command == "kat":
            answer = known_answer(words[1])
        else:
            answer = ["error", "unknown command " + command]
    except Exception as error:
        answer = ["error", type(error).__name__, str(error).replace("\n", " ")]
    print(" ".join(answer), flush=True)
"""#
}

extension Data {
    init(hex: String) {
        var bytes = [UInt8]()
        bytes.reserveCapacity(hex.utf8.count / 2)
        var high: UInt8?
        for character in hex.utf8 {
            let nibble: UInt8 = switch character {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
            default: preconditionFailure("not hex: \(hex)")
            }
            if let value = high {
                bytes.append(value << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        precondition(high == nil, "odd hex: \(hex)")
        self.init(bytes)
    }

    var hex: String { map { String(format: "%02x", $0) }.joined() }
}
