import KeychainServices
import KeychainSSHAgent

/// A public key as one line of OpenSSH's `authorized_keys` / `.pub` format, the form of
/// `security export -f openssh2`: the algorithm name, the base64 key blob, and the key's label
/// as the comment. The blob is the SSH agent's (``SSHKeyEncoding``), so `export` and the agent
/// show a key alike.
enum OpenSSHPublicKey {
    static func line(_ key: SecKey, comment: String?) throws -> String {
        guard let blob = SSHKeyEncoding.publicKeyBlob(of: key) else {
            throw KeyFileError("the key is not of a type SSH has (RSA, ECDSA on P-256, P-384 or P-521, Ed25519)")
        }
        return SSHPublicKeyText.authorizedKeysLine(blob: blob, comment: comment ?? "") + "\n"
    }
}
