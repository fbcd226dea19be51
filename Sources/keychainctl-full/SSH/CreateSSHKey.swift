import ArgumentParser
import Foundation
import KeychainSSHAgent
import KeychainServices

/// `create-ssh-key`: makes a key pair inside the keychain, stored as an SSH key keychaind's
/// agent offers, and prints its public key for `authorized_keys`. The private key never
/// leaves the keychain (no file is written).
struct CreateSSHKey: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create-ssh-key",
        abstract: "Create an SSH key in the keychain and print its public key.",
        discussion: """
            Generates the key with SecKeyCreateRandomKey and stores it as keychaind's SSH agent \
            stores keys (a private key item tagged ssh, or ssh-confirm with --confirm, labelled \
            with the comment). With --user-presence the agent asks for the keychain password \
            at each signature (the keychain needs a password then). Prints the public key line (TYPE BASE64 COMMENT) to add to a \
            server's ~/.ssh/authorized_keys. --type is ed25519 (the default, as ssh-keygen's since \
            OpenSSH 9.5), ecdsa (--bits 256, 384 or 521, default 256) or rsa (--bits 2048 to 16384, \
            default 3072, as ssh-keygen's). RSA keys are made no smaller than 2048 bits even though \
            the agent holds imported ones from 1024: a new key has no old server to suit. The \
            comment defaults to USER@HOST, as ssh-keygen's.
            """)

    enum KeyType: String, ExpressibleByArgument, CaseIterable {
        case ed25519, ecdsa, rsa

        var secKeyType: CFString {
            switch self {
            case .ed25519: kSecAttrKeyTypeEd25519
            case .ecdsa: kSecAttrKeyTypeECSECPrimeRandom
            case .rsa: kSecAttrKeyTypeRSA
            }
        }

        /// ssh-keygen's size when `-b` is not given.
        var defaultBits: Int {
            switch self {
            case .ed25519, .ecdsa: 256
            case .rsa: 3072
            }
        }
    }

    @Option(name: .customLong("type"), help: ArgumentHelp("ed25519, ecdsa or rsa.", valueName: "type"))
    var type: KeyType = .ed25519

    @Option(name: .customLong("bits"), help: ArgumentHelp("The key size in bits.", valueName: "bits"))
    var bits: Int?

    @Option(name: .customLong("comment"), help: ArgumentHelp("The key's comment (default: USER@HOST).", valueName: "comment"))
    var comment: String?

    @OptionGroup var use: SSHKeyUseOptions

    @OptionGroup var location: KeychainOption

    private var size: Int {
        bits ?? type.defaultBits
    }

    func validate() throws {
        switch type {
        case .ed25519 where size != 256:
            throw ValidationError("Ed25519 keys have 256 bits.")
        case .ecdsa where ![256, 384, 521].contains(size):
            throw ValidationError("ECDSA keys have 256, 384 or 521 bits.")
        case .rsa where size < 2048 || size > 16384:
            throw ValidationError("RSA keys have 2048 to 16384 bits.")
        default:
            break
        }
    }

    func run() throws {
        let target = KeychainSession.targets(location.named([]))[0]
        let file = try KeychainSession.openForItems(target, accessGroup: nil)
        let parameters: [CFString: Any] = [
            kSecAttrKeyType: type.secKeyType,
            kSecAttrKeySizeInBits: size,
        ]
        var error: Unmanaged<CFError>?
        guard let key = SecKeyCreateRandomKey(parameters as CFDictionary, &error) else {
            let status = error.map { OSStatus(truncatingIfNeeded: CFErrorGetCode($0.takeRetainedValue())) } ?? errSecInternal
            throw CommandFailure.status(status, "SecKeyCreateRandomKey")
        }
        guard let blob = SSHKeyEncoding.publicKeyBlob(of: key) else {
            throw CommandFailure.status(errSecInternal, "create-ssh-key", hint: "The new key has no SSH public key form.")
        }
        let keyComment = comment ?? Self.defaultComment
        let accessControl = try use.accessControl(for: file, keychain: target)
        do {
            try SSHKeychainKeys().add(key, comment: keyComment, constraints: use.constraints, accessControl: accessControl)
        } catch {
            throw CommandFailure.status(error.status, "SecItemAdd").about(target)
        }
        Console.out(SSHPublicKeyText.authorizedKeysLine(blob: blob, comment: keyComment) + "\n")
    }

    /// ssh-keygen's default comment: the user's name, an at sign, the host's name.
    static var defaultComment: String {
        let user = ProcessInfo.processInfo.environment["USER"] ?? ProcessInfo.processInfo.userName
        return "\(user)@\(ProcessInfo.processInfo.hostName)"
    }
}
