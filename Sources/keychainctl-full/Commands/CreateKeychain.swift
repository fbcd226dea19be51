import ArgumentParser
import Foundation
import KeychainServices
import KeychainStore

/// `create-keychain`: makes new, empty keychain files.
struct CreateKeychain: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create-keychain",
        abstract: "Create keychains.",
        discussion: """
            Creates each keychain (file mode 0600, folder 0700). An existing file is an error \
            (exit 48, errSecDuplicateKeychain) and is left untouched. Without -p or -P the new \
            keychain has no password: it opens with this user's device key alone, like the \
            default keychain. A bare name is created in the keychains folder \
            (${XDG_DATA_HOME:-~/.local/share}/keychains). As on macOS, keychain files end in \
            ".keychain-db": "work" and "work.keychain" both create work.keychain-db, which every \
            command then finds as work, work.keychain or work.keychain-db. \(PasswordArgument.warning(flag: "-p"))
            """)

    @Option(name: [.customShort("p"), .customLong("password")], parsing: .unconditional,
            help: ArgumentHelp("A password for the new keychains. Give -p last, or -p -, to be prompted.", valueName: "password"))
    var password: String?

    @Flag(name: .customShort("P"), help: "Prompt for the password (the same as -p -).")
    var promptForPassword = false

    @OptionGroup var location: KeychainOption

    @Argument(help: ArgumentHelp("The keychains to create (instead of --keychain).", valueName: "keychain"))
    var keychains: [String] = []

    func validate() throws {
        try location.validate(positional: keychains, allowsSeveral: true)
        if location.named(keychains).isEmpty { throw ValidationError("Name the keychain to create.") }
        if password != nil && promptForPassword { throw ValidationError("Give -p or -P, not both.") }
    }

    func run() throws {
        let wantsPassword = password != nil || promptForPassword
        let secret: [UInt8]? = try wantsPassword ? PasswordArgument.resolve(
            password ?? PasswordArgument.readMarker, prompt: "password for new keychain: ",
            confirmPrompt: "retype password for new keychain: ", context: "SecKeychainCreate") : nil
        for target in KeychainSession.targetsToCreate(location.named(keychains)) {
            let context = "SecKeychainCreate \(target.url.path)"
            if FileManager.default.fileExists(atPath: target.url.path) {
                throw CommandFailure.status(errSecDuplicateKeychain, context)
            }
            let file = try KeychainSession.create(target.url, context: context)
            if let secret {
                do {
                    try KeychainAdministration.setPassword(file, new: secret, current: nil, context: context)
                } catch {
                    // Leave no keychain behind without the password that was asked for.
                    file.forgetSharedUnlockState()
                    KeychainSession.close(target.url)
                    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: target.url.path + suffix) }
                    throw error
                }
            }
        }
    }
}
