import Foundation
import KeychainServices
import KeychainctlCommandLine

/// What the add, find and delete subcommands do, shared by the generic and internet variants.
/// Each step follows `security`: find the first match, then act on that one item.
enum PasswordActions {
    /// How `find-…-password` shows what it found.
    enum Show { case attributes, attributesAndPassword, passwordOnly }

    /// Adds an item, or with `update` changes the first matching item and adds one only when
    /// none matches (`-U`).
    static func add(_ given: PasswordAttributes, password: String?, update: Bool,
                    target: KeychainSession.Target, accessGroup: String?) throws(CommandFailure) {
        let keychainName = target.named ? target.url.path : "<default>"
        let secret = try password.map { (value) throws(CommandFailure) in
            Data(try PasswordArgument.resolve(value, prompt: "password data for new item: ",
                                              confirmPrompt: "retype password for new item: ",
                                              context: "SecKeychainItemCreateFromContent (\(keychainName))"))
        }
        _ = try KeychainSession.openForItems(target, accessGroup: accessGroup)
        try CommandFailure.about(target) { () throws(CommandFailure) in
            try store(given, secret: secret, update: update, keychainName: keychainName)
        }
    }

    private static func store(_ given: PasswordAttributes, secret: Data?, update: Bool,
                              keychainName: String) throws(CommandFailure) {
        var stored = given
        // As in `security`, the label defaults to the service (or server).
        if stored.label == nil { stored.label = given.kind == .generic ? given.service : given.server }

        if update, let existing = try ItemStore.first(given.searchAttributes, withSecret: false,
                                                      context: "SecKeychainSearchCopyNext") {
            var changes = stored.allAttributes
            if let secret { changes[kSecValueData as String] = secret }
            try ItemStore.update(existing.reference, changes: changes, context: "SecKeychainItemModifyContent")
            return
        }
        // A new internet password gets the default authentication type, as `security` gives it.
        if stored.kind == .internet && stored.authenticationType == nil { stored.authenticationType = FourCharCode(PasswordCommandSyntax.newInternetAuthenticationType) }
        let context = given.kind == .generic
            ? "SecKeychainItemCreateFromContent (\(keychainName))"
            : "SecKeychainAddInternetPassword \(keychainName)"
        try ItemStore.add(stored.allAttributes, secret: secret ?? Data(), context: context)
    }

    /// Prints the first item matching `given` in the first of `targets` that has one.
    /// With `json`, the item is one JSON object (``ItemJSON``), with the password in it only
    /// when `show` asks for the password.
    static func find(_ given: PasswordAttributes, show: Show, targets: [KeychainSession.Target],
                     accessGroup: String?, json: Bool = false) throws(CommandFailure) {
        let (found, keychain) = try first(given, withSecret: show != .attributes, targets: targets, accessGroup: accessGroup)
        if json {
            let secret = show == .attributes ? nil : (found.secret ?? Data())
            Console.out(ItemJSON.text(ItemJSON.object(found.attributes, kind: given.kind, keychain: keychain, secret: secret)))
            return
        }
        let secret = Array(found.secret ?? Data())
        switch show {
        case .passwordOnly:
            Console.outBytes(SecurityFormat.passwordOnly(secret) + [UInt8(ascii: "\n")])
        case .attributes:
            Console.out(ItemPrinter.render(found.attributes, kind: given.kind, keychain: keychain))
        case .attributesAndPassword:
            Console.out(ItemPrinter.render(found.attributes, kind: given.kind, keychain: keychain))
            Console.err(ItemPrinter.passwordLine(secret))
        }
    }

    /// Deletes the first item matching `given`, printing its attributes first as `security` does.
    static func delete(_ given: PasswordAttributes, targets: [KeychainSession.Target],
                       accessGroup: String?) throws(CommandFailure) {
        let (found, keychain) = try first(given, withSecret: false, targets: targets, accessGroup: accessGroup)
        Console.out(ItemPrinter.render(found.attributes, kind: given.kind, keychain: keychain))
        try ItemStore.delete(found.reference, context: "SecKeychainItemDelete")
        Console.err("password has been deleted.\n")
    }

    private static func first(_ given: PasswordAttributes, withSecret: Bool, targets: [KeychainSession.Target],
                              accessGroup: String?) throws(CommandFailure) -> (ItemStore.Found, URL) {
        for target in targets {
            _ = try KeychainSession.openForItems(target, accessGroup: accessGroup)
            let match = try CommandFailure.about(target) { () throws(CommandFailure) in
                do throws(CommandFailure) {
                    return try ItemStore.first(given.searchAttributes, withSecret: withSecret,
                                               context: "SecKeychainSearchCopyNext")
                } catch {
                    // Only an item whose access control asks for authentication refuses a read
                    // with errSecAuthFailed: the password typed for it was wrong.
                    throw error.replacingHint(for: errSecAuthFailed, with: itemAuthenticationHint)
                }
            }
            if let match { return (match, target.url) }
        }
        throw .status(errSecItemNotFound, "SecKeychainSearchCopyNext", keychain: targets.count == 1 ? targets[0] : nil)
    }

    static let itemAuthenticationHint = "The item asks for authentication before it is read, and the keychain password given was not accepted; try again."
}
