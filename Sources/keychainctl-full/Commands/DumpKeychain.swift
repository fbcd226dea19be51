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

            Where SWIFT_KEYCHAIN_KEEPER names a keeper, the items listed are those the keeper \
            lets keychainctl see, and those that need authentication are left out.
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
        if location.named(keychains).isEmpty, let socket = try KeychainSession.servedSocket() {
            try dumpServed(socket: socket, into: &objects)
            if json { Console.out(ItemJSON.text(objects)) }
            return
        }
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

    /// Served: every password item the keeper lets this program see (its groups, not an
    /// administrator's), as SecItemCopyMatching returns them; the items that need the user are
    /// left out (kSecUseAuthenticationUISkip), as the keeper, not keychainctl, would ask.
    private func dumpServed(socket: String, into objects: inout [[String: Any]]) throws(CommandFailure) {
        let keychain = URL(fileURLWithPath: socket)
        for kind in [PasswordCommandSyntax.Item.internet, .generic] {
            var query: [String: Any] = [
                kSecClass as String: kind == .generic ? kSecClassGenericPassword : kSecClassInternetPassword,
                kSecMatchLimit as String: kSecMatchLimitAll, kSecReturnAttributes as String: true,
                kSecAttrSynchronizable as String: kSecAttrSynchronizableAny,
                kSecUseAuthenticationUI as String: kSecUseAuthenticationUISkip,
            ]
            if includeData { query[kSecReturnData as String] = true }
            if let accessGroup = group.accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
            var result: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            if status == errSecItemNotFound { continue }
            guard status == errSecSuccess, let items = result as? [[String: Any]] else {
                throw CommandFailure.status(status == errSecSuccess ? errSecInternal : status, Self.searchContext)
            }
            for item in items {
                let secret = item[kSecValueData as String] as? Data
                if json {
                    objects.append(ItemJSON.object(item, kind: kind, keychain: keychain, secret: includeData ? (secret ?? Data()) : nil))
                    continue
                }
                var text = ItemPrinter.render(item, kind: kind, keychain: keychain)
                if includeData { text += "data:\n" + SecurityFormat.buffer(Array(secret ?? Data())) + "\n" }
                Console.out(text)
            }
        }
    }

    static let searchContext = "SecKeychainSearchCopyNext"
    static let askedOnlyWithData = "dump-keychain -d asks for authentication at a terminal."
    static let noOneToAsk = "there is no terminal to ask for authentication on."
}
