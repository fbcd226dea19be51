import KeychainctlCommandLine
import ArgumentParser
import Foundation
import KeychainServices

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

            Items whose access control asks for authentication are left out, and a line on \
            standard error says how many; with -d they are asked for once per keychain at a \
            terminal, and left out the same way where no one can be asked.

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
        let file = try KeychainSession.open(target)
        // As `security dump-keychain -d` does, ask to unlock a locked keychain first (with -d
        // the password may also come on standard input); without -d only someone at a terminal
        // is asked, as every item command asks (KeychainSession.openForItems).
        if includeData || Console.inputIsTerminal { try KeychainAdministration.unlockIfNeeded(file, path: target.url.path) }
        let identity = KeychainSession.identity(accessGroup: group.accessGroup)
        // One password typed at the prompt serves both classes of the keychain.
        let shared = EngineItemResults.SharedAuthentication()
        var skipped = 0
        for kind in [PasswordCommandSyntax.Item.internet, .generic] {
            var listing = try ItemStore.all(kind, in: file, identity: identity, withSecrets: includeData, authentication: .skip,
                                            context: Self.searchContext)
            if includeData && listing.skipped > 0 {
                do {
                    listing = try ItemStore.all(kind, in: file, identity: identity, withSecrets: true,
                                                authentication: .ask(prompt: ItemAuthenticationText.dumpPrompt(keychainPath: target.url.path),
                                                                     shared: shared),
                                                context: Self.searchContext)
                } catch let failure where failure.status == errSecInteractionNotAllowed {
                    // No one to ask (no terminal): the items that need it stay left out.
                }
            }
            skipped += listing.skipped
            for item in listing.items {
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
        if skipped > 0 {
            Console.err(ItemAuthenticationText.skippedNote(skipped, keychainPath: target.url.path,
                                                           why: includeData ? Self.noOneToAsk : Self.askedOnlyWithData))
        }
    }

    static let searchContext = "SecKeychainSearchCopyNext"
    static let askedOnlyWithData = "dump-keychain -d asks for authentication at a terminal."
    static let noOneToAsk = "there is no terminal to ask for authentication on."
}
