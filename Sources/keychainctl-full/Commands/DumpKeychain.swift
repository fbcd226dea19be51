import KeychainctlCommandLine
import ArgumentParser
import Foundation

/// `dump-keychain`: prints every password item of one or more keychains.
struct DumpKeychain: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump-keychain",
        abstract: "Dump the contents of one or more keychains.",
        discussion: """
            Prints every generic and internet password item, synchronizable ones too, in the \
            format of `find-generic-password`, on standard output. With -d each item's password \
            follows ("data:" and the value on the next line); a locked keychain is unlocked \
            first, with its password prompted for (or read from standard input). An empty \
            keychain prints nothing.

            With --json the items of every keychain given are printed as one JSON array of \
            objects, as `find-generic-password --json` prints one (an empty keychain prints \
            []); with -d each object has the password.
            """)

    @Flag(name: .customShort("d"), help: "Include each item's password (its decrypted data).")
    var includeData = false

    @Flag(name: .customLong("json"), help: "Print the items as one JSON array (sorted keys); with -d each has its password.")
    var json = false

    @OptionGroup var location: KeychainOption
    @OptionGroup var group: AccessGroupOption

    @Argument(help: ArgumentHelp("The keychains to dump (instead of --keychain).", valueName: "keychain"))
    var keychains: [String] = []

    func validate() throws {
        try location.validate(positional: keychains, allowsSeveral: true)
    }

    func run() throws {
        // JSON is printed only once every keychain has been read, so a failure prints no
        // partial array.
        var objects: [[String: Any]] = []
        for target in KeychainSession.targets(location.named(keychains)) {
            try CommandFailure.about(target) { () throws(CommandFailure) in try dump(target, into: &objects) }
        }
        if json { Console.out(ItemJSON.text(objects)) }
    }

    private func dump(_ target: KeychainSession.Target, into objects: inout [[String: Any]]) throws(CommandFailure) {
        let file = try KeychainSession.openForItems(target, accessGroup: group.accessGroup)
        // As `security dump-keychain -d` does, ask to unlock a locked keychain first.
        if includeData { try KeychainAdministration.unlockIfNeeded(file, path: target.url.path) }
        for kind in [PasswordCommandSyntax.Item.internet, .generic] {
            for item in try ItemStore.all(kind, withSecrets: includeData, context: "SecKeychainSearchCopyNext") {
                if json {
                    objects.append(ItemJSON.object(item.attributes, kind: kind, keychain: target.url,
                                                   secret: includeData ? (item.secret ?? Data()) : nil))
                    continue
                }
                var text = ItemPrinter.render(item.attributes, kind: kind, keychain: target.url)
                if includeData {
                    text += "data:\n" + SecurityFormat.buffer(Array(item.secret ?? Data())) + "\n"
                }
                Console.out(text)
            }
        }
    }
}
