import Foundation
import KeychainSSHAgent
import KeychainServices
import KeychainStore

/// Reads an OpenSSH private key file for the SSH commands, asking its passphrase when it is
/// encrypted: on the terminal without echo (three tries, as ssh-add gives), else one line from
/// standard input or from `--passphrase-fd`.
enum SSHKeyFileInput {
    /// A key read from a file, with the passphrase that opened it (empty for an unencrypted file).
    struct Opened {
        let key: SSHPrivateKey
        let comment: String
        var passphrase: [UInt8]
    }

    /// The file's outer structure (nothing decrypted yet).
    static func parse(_ path: String, context: String) throws(CommandFailure) -> OpenSSHKeyFile {
        guard let contents = FileManager.default.contents(atPath: path) else {
            throw .status(errSecIO, context, hint: "Check that \(path) exists and is readable.")
        }
        do {
            return try OpenSSHKeyFile(contents: contents)
        } catch {
            throw failure(error, context: context)
        }
    }

    /// Decrypts with `known` when given (and returns nil if it no longer fits), else asks.
    static func open(_ file: OpenSSHKeyFile, path: String, known: [UInt8]? = nil, passphraseFD: PasswordDescriptor?,
                     context: String) throws(CommandFailure) -> Opened? {
        if !file.isEncrypted {
            do {
                let (key, comment) = try file.decrypt(passphrase: [])
                return Opened(key: key, comment: comment, passphrase: [])
            } catch {
                throw failure(error, context: context)
            }
        }
        if let known {
            do {
                let (key, comment) = try file.decrypt(passphrase: known)
                return Opened(key: key, comment: comment, passphrase: known)
            } catch .wrongPassphrase {
                return nil
            } catch {
                throw failure(error, context: context)
            }
        }
        let tries = passphraseFD == nil && Console.inputIsTerminal ? 3 : 1
        let prompt = "Enter passphrase for \(path): "
        for attempt in 1...tries {
            var passphrase = if let passphraseFD {
                try passphraseFD.read(prompt: prompt, context: context)
            } else {
                try PasswordInput.read(prompt: prompt, context: context)
            }
            do {
                let (key, comment) = try file.decrypt(passphrase: passphrase)
                return Opened(key: key, comment: comment, passphrase: passphrase)
            } catch .wrongPassphrase where attempt < tries {
                SecretBuffer.wipe(&passphrase)
                Console.err("Bad passphrase, try again for \(path): \n")
            } catch {
                SecretBuffer.wipe(&passphrase)
                throw failure(error, context: context)
            }
        }
        throw failure(.wrongPassphrase, context: context)
    }

    /// The key as a `SecKey`, or the reason the keychain cannot hold it.
    static func secKey(_ key: SSHPrivateKey, context: String) throws(CommandFailure) -> SecKey {
        guard let secKey = key.secKey() else {
            throw .status(errSecUnsupportedKeySize, context,
                          hint: "The key's parts do not make a key the keychain holds (RSA keys need 1024 bits or more).")
        }
        return secKey
    }

    /// A key file error as the command's failure: a wrong passphrase is errSecAuthFailed (exit
    /// 51), as a wrong keychain password is; a file that is no key file or is damaged is
    /// errSecUnknownFormat; an unsupported cipher, KDF or key type is errSecUnimplemented.
    static func failure(_ error: OpenSSHKeyFileError, context: String) -> CommandFailure {
        let status: OSStatus
        let hint: String?
        switch error {
        case .wrongPassphrase, .passphraseRequired:
            status = errSecAuthFailed
            hint = "Give the passphrase the key file was encrypted with (ssh-keygen -p changes it)."
        case .notAnOpenSSHKeyFile, .damaged, .keyCount, .tooManyRounds:
            status = errSecUnknownFormat
            hint = "Only OpenSSH's own key format is read; `ssh-keygen -p -f FILE` rewrites an older (PEM) file in it."
        case .unsupportedCipher, .unsupportedKDF:
            status = errSecUnimplemented
            hint = "Re-encrypt the file with `ssh-keygen -p -Z aes256-ctr -f FILE`."
        case .unsupportedKeyType:
            status = errSecUnimplemented
            hint = nil
        }
        return CommandFailure(status: status, context: context, message: error.description.capitalisedFirst + ".", hint: hint)
    }
}
