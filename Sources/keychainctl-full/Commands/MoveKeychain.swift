import ArgumentParser
import Foundation
import KeychainServices
import KeychainStore

/// Where a move goes: the keeper named by `--keeper` (as `SWIFT_KEYCHAIN_KEEPER` names one).
struct KeeperChoice: ParsableArguments {
    @Option(help: ArgumentHelp("The keeper: system (keychaind --system), served (this session's keychaind --keeper) or a socket's absolute path.",
                               valueName: "keeper"))
    var keeper = "system"

    func socketPath() throws(CommandFailure) -> String {
        do {
            guard let path = try KeychainKeeper.fromEnvironment([KeychainKeeper.environmentVariable: keeper]
                .merging(ProcessInfo.processInfo.environment.filter { $0.key == "XDG_RUNTIME_DIR" }) { $1 }).socketPath else {
                throw CommandFailure(status: nil, context: "keeper", message: "--keeper must name a keeper, not embedded.", hint: nil)
            }
            return path
        } catch let error as KeychainStoreError {
            throw CommandFailure.engine(error, "keeper")
        } catch {
            throw error as! CommandFailure
        }
    }

    /// A keeper's refusal in words, for the statuses its keychain calls meet. A success with an
    /// answer that is not the one asked for is an answer this program cannot read (errSecDecode).
    static func failure(_ status: OSStatus, _ context: String, socket: String) -> CommandFailure {
        switch status {
        case errSecSuccess:
            return .status(errSecDecode, context, hint: "The keeper at \(socket) gave an answer to another call: is it another version of keychaind?")
        case errSecNotAvailable:
            return .status(status, context, hint: "No keeper answers at \(socket): start it (the system keeper: systemctl enable --now swift-keychain-keeper.socket; this session's: keychaind --keeper, or systemctl --user enable --now keychaind.socket).")
        case errSecDuplicateKeychain:
            return .status(status, context, hint: "The keeper already holds a keychain with items for you; move that one out first (move-keychain-from-keeper).")
        case errSecNoSuchKeychain:
            return .status(status, context, hint: "The keeper holds no keychain for you.")
        case errSecUnimplemented:
            return .status(status, context, hint: "That keeper serves your own keychain file (keychaind --keeper): there is nothing to move.")
        default:
            return .status(status, context)
        }
    }
}

/// `move-keychain-to-keeper`: hands the login keychain, whole, to a keeper.
struct MoveKeychainToKeeper: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "move-keychain-to-keeper",
        abstract: "Move the login keychain into the system keeper.",
        discussion: """
            Sends the login keychain (the default keychain's file, as it is: items, password, \
            access control and seals), its sync state and its device key to the keeper, which keeps \
            them where your processes cannot read them, then deletes the file here. Programs then \
            reach it with SWIFT_KEYCHAIN_KEEPER=system. Stop the programs that use the keychain \
            first: while another process of yours has the file open the move is refused. The device key stays here, for \
            your other keychains. The keychain arrives locked if it has a password; the next \
            login with pam_keychain.so keeper=system unlocks it there, or \
            SWIFT_KEYCHAIN_KEEPER=system keychainctl unlock-keychain.
            """)

    @OptionGroup var choice: KeeperChoice

    func run() throws {
        let socket = try choice.socketPath()
        let url = KeychainPaths.defaultKeychain()
        let context = "SecKeychainMove \(url.path)"
        let holders = OpenFileHolders.of(KeychainFile.files(of: url))
        guard holders.isEmpty else {
            throw CommandFailure(status: errSecNotAvailable, context: context,
                                 message: "The keychain is open in \(holders.joined(separator: ", ")); what they write after the move would be lost.",
                                 hint: "Stop them first (keychaind: systemctl --user stop keychaind), then move it.")
        }
        let file: KeychainFile
        let moved: MovedKeychain
        do {
            file = try KeychainFile.open(at: url, create: false)
            moved = try MovedKeychain.read(file, at: url, deviceKeyURL: DeviceKey.defaultLocation())
        } catch {
            throw CommandFailure.engine(error, context)
        }
        let (status, reply) = KeeperKeychainCall.adopt(moved).send(to: socket)
        guard status == errSecSuccess, reply?.outcome == .adopted else { throw KeeperChoice.failure(status, context, socket: socket) }
        // The keeper holds it now; the copy here would be the one every process can read.
        do {
            try KeychainFile.deleteKeychain(at: url, open: file)
            try? FileManager.default.removeItem(at: KeychainPaths.syncState(forKeychain: url))
        } catch {
            throw CommandFailure.engine(error, context, hint: "The keeper holds the keychain now; delete the copy here yourself (delete-keychain \(url.path)).")
        }
        // So that a program not switched over fails instead of starting a new, readable file here.
        do {
            try KeychainFile.markMovedToKeeper(url, keeper: choice.keeper)
        } catch {
            Console.err("\(Console.programName): warning: no note was left at \(KeychainPaths.movedMarker(forKeychain: url).path) (\(error.reason)); a program run without \(KeychainKeeper.environmentVariable) will start a new keychain there\n")
        }
        Console.out("moved \(url.path) into the keeper at \(socket); programs reach it with \(KeychainKeeper.environmentVariable)=\(choice.keeper)\n")
    }
}

/// `move-keychain-from-keeper`: takes the keychain back out of a keeper into the login keychain's file.
struct MoveKeychainFromKeeper: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "move-keychain-from-keeper",
        abstract: "Move your keychain out of the system keeper into the login keychain's file.",
        discussion: """
            Writes the keychain the keeper holds for you, as it is, to the default keychain's \
            path (which must not exist) and its device key beside yours (it must be missing or \
            the same key), checks that it opens, and then has the keeper delete its copy. \
            Programs then open the file themselves again (SWIFT_KEYCHAIN_KEEPER unset). Stop the \
            served programs first: a change they make after the copy is not moved.
            """)

    @OptionGroup var choice: KeeperChoice

    func run() throws {
        let socket = try choice.socketPath()
        let url = KeychainPaths.defaultKeychain()
        let context = "SecKeychainMove \(url.path)"
        guard !FileManager.default.fileExists(atPath: url.path) else {
            throw CommandFailure(status: errSecDuplicateKeychain, context: context, message: "A keychain is already at \(url.path).",
                                 hint: "Move or delete it first (delete-keychain).")
        }
        let (status, reply) = KeeperKeychainCall.release.send(to: socket)
        guard status == errSecSuccess, let reply, reply.outcome == .released, let moved = reply.moved else {
            throw KeeperChoice.failure(status, context, socket: socket)
        }
        do {
            _ = try KeychainFile.install(moved, at: url, deviceKeyURL: DeviceKey.defaultLocation())
        } catch {
            throw CommandFailure.engine(error, context, hint: error.status == errSecDuplicateKeychain
                ? "Your device key differs from the one this keychain was made with; the keychain stays in the keeper." : nil)
        }
        KeychainFile.clearMovedToKeeper(url)
        let (forgotten, _) = KeeperKeychainCall.forget.send(to: socket)
        guard forgotten == errSecSuccess else {
            throw KeeperChoice.failure(forgotten, "\(context) (the keychain is at \(url.path); the keeper kept its copy too)", socket: socket)
        }
        Console.out("moved your keychain out of the keeper at \(socket) to \(url.path)\n")
    }
}
