import Foundation
import KeychainServices
import KeychainStore
import KeychainctlCommandLine
import KeychainctlPasswords

/// The per-credential commands (find, add, delete of generic and internet passwords) when this
/// environment's keychain is served (`SWIFT_KEYCHAIN_KEEPER` names a keeper): the same request
/// as SecItem calls, which go to the keeper, so keychainctl never opens the file and sees only
/// the access groups the keeper gives it, as any other program (docs/design-notes.md, "The
/// keeper"). The attributes are the ones the embedded run stores (``PasswordAttributes``), and
/// the output and failures are printed the same way.
///
/// What differs from the embedded run: a keychain named on the command line is refused (it is
/// a file, and served means the file is not opened here); keychainctl is not an administrator,
/// so `--access-group` narrows to a group the keeper gives it and an item of another group is
/// not found; the keeper, not keychainctl, asks for an item's authentication.
enum ServedPasswordCommand {
    static func run(_ request: PasswordRequest, socket: String) throws(CommandFailure) {
        do {
            try runServed(request, socket: socket)
        } catch {
            // A keeper that does not answer: say which, and how to start it.
            throw error.status == errSecNotAvailable && error.hint == StatusText.hint(errSecNotAvailable)
                ? KeeperChoice.failure(errSecNotAvailable, error.context, socket: socket) : error
        }
    }

    private static func runServed(_ request: PasswordRequest, socket: String) throws(CommandFailure) {
        guard request.keychains.isEmpty else {
            throw CommandFailure(status: errSecNotAvailable, context: request.commandName,
                                 message: "A keychain named on the command line is a file, and this environment's keychain is served by keychaind at \(socket).",
                                 hint: KeychainSession.embeddedHint)
        }
        let attributes: PasswordAttributes
        do {
            attributes = try PasswordAttributes(request)
        } catch {
            throw PasswordCommand.failure(error, request: request, targets: [], keychainName: "<default>")
        }
        let keychain = URL(fileURLWithPath: socket)
        switch request.action {
        case .find(let show, let json):
            let found = try first(attributes, request, withSecret: show != .attributes)
            let secret = found[kSecValueData as String] as? Data
            if json {
                Console.out(ItemJSON.text(ItemJSON.object(found, kind: request.item, keychain: keychain,
                                                          secret: show == .attributes ? nil : (secret ?? Data()))))
                return
            }
            if show == .passwordOnly {
                Console.write(STDOUT_FILENO, SecurityFormat.passwordOnly(Array(secret ?? Data())) + [UInt8(ascii: "\n")])
                return
            }
            Console.out(ItemPrinter.render(found, kind: request.item, keychain: keychain))
            if show == .attributesAndPassword { Console.err(ItemListing.passwordLine(Array(secret ?? Data()))) }
        case .delete:
            let found = try first(attributes, request, withSecret: false)
            Console.out(ItemPrinter.render(found, kind: request.item, keychain: keychain))
            guard let reference = found[kSecValuePersistentRef as String] as? Data else { throw .status(errSecInternal, "SecKeychainItemDelete") }
            let status = SecItemDelete([kSecClass as String: itemClass(request), kSecValuePersistentRef as String: reference] as CFDictionary)
            guard status == errSecSuccess else { throw .status(status, "SecKeychainItemDelete") }
            Console.err("password has been deleted.\n")
        case .add(let given, let update):
            let secret: [UInt8]?
            switch given {
            case .given(let text)?: secret = Array(text.utf8)
            case .prompt?:
                secret = try PasswordInput.read(prompt: "password data for new item: ", confirmPrompt: "retype password for new item: ",
                                                context: addContext(request))
            case nil: secret = nil
            }
            if update {
                var changes = dictionary(attributes.stored)
                if let secret { changes[kSecValueData as String] = Data(secret) }
                var search = query(attributes, request)
                search.removeValue(forKey: kSecMatchLimit as String)
                let status = SecItemUpdate(search as CFDictionary, changes as CFDictionary)
                if status == errSecSuccess { return }
                guard status == errSecItemNotFound else { throw .status(status, "SecKeychainItemModifyContent") }
            }
            var item = dictionary(attributes.new)
            item[kSecClass as String] = itemClass(request)
            item[kSecValueData as String] = Data(secret ?? [])
            if let group = request.accessGroup { item[kSecAttrAccessGroup as String] = group }
            let status = SecItemAdd(item as CFDictionary, nil)
            guard status == errSecSuccess else { throw .status(status, addContext(request)) }
        }
    }

    /// The first item matching, with its attributes, persistent reference and, when asked, its
    /// password, as SecItemCopyMatching returns them.
    private static func first(_ attributes: PasswordAttributes, _ request: PasswordRequest, withSecret: Bool) throws(CommandFailure) -> [String: Any] {
        var search = query(attributes, request)
        search[kSecReturnAttributes as String] = true
        search[kSecReturnPersistentRef as String] = true
        if withSecret { search[kSecReturnData as String] = true }
        var result: CFTypeRef?
        let status = SecItemCopyMatching(search as CFDictionary, &result)
        guard status == errSecSuccess else {
            throw CommandFailure.status(status, PasswordCommand.searchContext)
                .replacingHint(for: errSecInteractionNotAllowed, with: PasswordCommand.noOneToAskHint)
        }
        guard let found = result as? [String: Any] else { throw .status(errSecInternal, PasswordCommand.searchContext) }
        return found
    }

    /// What a find, a delete and `-U` search on: synchronizable items too, unless
    /// `--synchronizable` asks for those only.
    private static func query(_ attributes: PasswordAttributes, _ request: PasswordRequest) -> [String: Any] {
        var query = dictionary(attributes.search)
        query[kSecClass as String] = itemClass(request)
        if query[kSecAttrSynchronizable as String] == nil { query[kSecAttrSynchronizable as String] = kSecAttrSynchronizableAny }
        if let group = request.accessGroup { query[kSecAttrAccessGroup as String] = group }
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        return query
    }

    /// Attribute values as a SecItem dictionary holds them (the names are SecItem's keys).
    private static func dictionary(_ values: [String: InputValue]) -> [String: Any] {
        var dictionary: [String: Any] = [:]
        for (name, value) in values {
            switch value {
            case .string(let text): dictionary[name] = text
            case .data(let bytes): dictionary[name] = bytes
            case .integer(let number): dictionary[name] = NSNumber(value: number)
            case .real(let number): dictionary[name] = NSNumber(value: number)
            case .boolean(let flag): dictionary[name] = flag
            case .date(let seconds): dictionary[name] = Date(timeIntervalSinceReferenceDate: seconds)
            case .null, .unsupported: continue
            }
        }
        return dictionary
    }

    private static func itemClass(_ request: PasswordRequest) -> CFString {
        request.item == .generic ? kSecClassGenericPassword : kSecClassInternetPassword
    }

    private static func addContext(_ request: PasswordRequest) -> String {
        request.item == .generic ? "SecKeychainItemCreateFromContent (<default>)" : "SecKeychainAddInternetPassword <default>"
    }
}
