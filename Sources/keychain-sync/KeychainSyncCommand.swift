#if Sync  // built only with the Sync trait (Package.swift)
import ArgumentParser
import Foundation
import KeychainStore
import KeychainSync

/// `keychain-sync` (also run as `keychainctl sync`): joins a keychain to a sync group in a
/// PostgreSQL database and keeps its synchronizable items in step with the group's other devices.
@main
struct KeychainSyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keychain-sync",
        abstract: "Share a keychain's synchronizable items with other machines through PostgreSQL.",
        subcommands: [Join.self, Approve.self, Now.self, Watch.self, Status.self, RemoveDevice.self, Leave.self, ServerSetup.self])
}

/// The keychain to work on, as keychainctl chooses it.
struct KeychainChoice: ParsableArguments {
    @Option(name: .long, help: "The keychain file (default: $SWIFT_KEYCHAIN_PATH, else the login keychain).")
    var keychain: String?

    func engine() throws -> SyncEngine {
        let url = keychain.map { URL(fileURLWithPath: $0) } ?? KeychainPaths.defaultKeychain()
        let deviceKey = try DeviceKey.load(from: DeviceKey.defaultLocation(), create: true)
        return try SyncEngine(keychainURL: url, deviceKey: deviceKey)
    }
}

/// Runs `body`, turning failures into one line on standard error and exit status 1. A command
/// that is not done a little after the engine's deadline ends the process (every step it took is
/// a finished transaction), as a last resort: the engine already gives up on a connection that
/// closed or passed its deadline (ConnectionGuard), but a query PostgresNIO never answers stays
/// waiting in its task.
func reporting(bounded: Bool = true, _ body: () async throws -> Void) async throws {
    if bounded {
        let limit = SyncEngine.deadline + 10
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: limit)
            FileHandle.standardError.write(Data("keychain-sync: gave up after \(Int(limit)) s without an answer from the server\n".utf8))
            exit(3)
        }
    }
    do {
        try await body()
    } catch let error as ExitCode {
        throw error
    } catch {
        printError(error)
        throw ExitCode.failure
    }
}

/// One line on standard error; an error may carry the server's own words, so it is made safe first.
func printError(_ error: any Error) {
    FileHandle.standardError.write(Data("keychain-sync: \(TerminalText.safeLines(String(describing: error)))\n".utf8))
}

struct Join: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Join the sync group in a PostgreSQL database (the first device creates it; later ones wait for approval).")
    @OptionGroup var choice: KeychainChoice
    @Option(help: "A name for this device, shown to the other devices (default: the host name).")
    var name: String?
    @Option(help: "The fingerprint of the group to join, as 'keychainctl sync status' shows it on one of its devices (needed when the database holds a group).")
    var group: String?
    @Argument(help: "postgresql://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=MODE&sslrootcert=CA.pem], or postgresql://USER@/DATABASE?host=/socket/folder")
    var url: String

    func run() async throws {
        try await reporting {
            let engine = try choice.engine()
            switch try await engine.join(urlText: url, deviceName: name ?? ProcessInfo.processInfo.hostName, groupFingerprint: group) {
            case .createdGroup(let device, let group):
                print("created a new sync group; this device is \(device), the group's fingerprint is \(group)")
                print("another device joins it with: keychainctl sync join URL --group \(group)")
            case .pending(let device):
                print("asked to join; this device's fingerprint is \(device)")
                print("on a device of the group, check the fingerprint and run: keychainctl sync approve \(device)")
            case .alreadyJoined(let device):
                print("this keychain is already in a sync group as device \(device)")
            }
        }
    }
}

struct Approve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Let a pending device in, by the fingerprint it showed.",
        discussion: "Shows the device it is about to admit first and, at a terminal, asks before admitting it.")
    @OptionGroup var choice: KeychainChoice
    @Argument(help: "The pending device's fingerprint, as its 'join' printed it.")
    var device: String
    @Flag(name: .shortAndLong, help: "Do not ask before admitting it (scripts).")
    var yes = false

    func run() async throws {
        let ask = !yes && isatty(STDIN_FILENO) == 1
        try await reporting(bounded: !ask) {
            let approved = try await choice.engine().approve(device) { candidate in
                print("admitting \"\(TerminalText.safe(candidate.name))\" with fingerprint \(candidate.fingerprint)")
                guard ask else { return true }
                print("admit this device? [y/N] ", terminator: "")
                fflush(nil)
                return readLine()?.lowercased().hasPrefix("y") == true
            }
            print("approved \"\(TerminalText.safe(approved.name))\" (\(approved.fingerprint))")
        }
    }
}

struct Now: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Pull other devices' changes and push this keychain's, once.")
    @OptionGroup var choice: KeychainChoice

    func run() async throws {
        try await reporting {
            let report = try await choice.engine().syncNow()
            print(report)
        }
    }
}

struct Watch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Stay connected: pull whenever another device writes, push whenever this keychain changes, reconnect when the server comes back.",
        discussion: """
        Prints one line per round that moved something (and one for the first round of each \
        connection), and a line on standard error when the server is unreachable. Exits with \
        status \(Watch.nothingToDoStatus) when the keychain is not in a sync group or this device was removed.
        """)
    @OptionGroup var choice: KeychainChoice
    @Option(help: "Stop after this many rounds (default: never).")
    var rounds: Int?
    @Flag(help: "Stop when standard input reaches its end (keychaind runs watch this way, so that it ends with keychaind).")
    var untilStdinCloses = false

    /// The exit status that says "nothing to sync": keychaind does not restart watch until the sync state file changes.
    static let nothingToDoStatus: Int32 = 4

    func run() async throws {
        if untilStdinCloses {
            // keychaind blocks SIGTERM and SIGINT for its own sigwait thread, and a child inherits
            // that mask: unblock them so that the child can still be stopped like any process.
            var stopSignals = sigset_t()
            sigemptyset(&stopSignals)
            sigaddset(&stopSignals, SIGTERM)
            sigaddset(&stopSignals, SIGINT)
            pthread_sigmask(SIG_UNBLOCK, &stopSignals, nil)
            Thread.detachNewThread {
                while !FileHandle.standardInput.availableData.isEmpty {}
                Foundation.exit(0)
            }
        }
        do {
            let engine = try choice.engine()
            let limit = rounds
            let counter = RoundCounter()
            try await engine.listen { event in
                switch event {
                case .round(let report):
                    print(report)
                    fflush(nil)
                    return await counter.next(limit: limit)
                case .disconnected(let reason, let retryIn):
                    FileHandle.standardError.write(Data("keychain-sync: \(TerminalText.safeLines(reason)); trying again in \(String(format: "%.1f", retryIn)) s\n".utf8))
                    return true
                }
            }
        } catch let error as SyncError {
            printError(error)
            switch error {
            case .notJoined, .removed, .rosterReestablished, .wrongGroup: throw ExitCode(Watch.nothingToDoStatus)
            default: throw ExitCode.failure
            }
        } catch {
            printError(error)
            throw ExitCode.failure
        }
    }
}

/// Counts watch rounds against an optional limit.
actor RoundCounter {
    private var done = 0
    func next(limit: Int?) -> Bool {
        done += 1
        return limit.map { done < $0 } ?? true
    }
}

struct Status: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show the group's devices, the last sync and pending changes.")
    @OptionGroup var choice: KeychainChoice

    func run() async throws {
        try await reporting {
            let status = try await choice.engine().status()
            print("server: \(TerminalText.safe(status.url, limit: 512)) (\(status.transport))")
            print("this device: \(status.deviceFingerprint)")
            print("group: \(status.groupFingerprint ?? "unknown")" + (status.epoch.map { ", epoch \($0)" } ?? ", no group key yet (waiting for approval)"))
            print("roster: \(status.rosterFingerprint ?? "not verified yet") (the same on every device that holds the same list of members)")
            print("last sync: \(status.lastSync ?? "never")")
            print("pending changes: \(status.pendingChanges.map(String.init) ?? "unknown")")
            print("rejected records: \(status.rejectedRecords), replayed records ignored: \(status.replayedRecords)")
            if let problem = status.serverProblem { print("server unreachable or not believed: \(TerminalText.safeLines(problem))") }
            for device in status.devices {
                let seen = device.lastSeen.map { ISO8601DateFormatter().string(from: $0) } ?? "never"
                let me = device.fingerprint == status.deviceFingerprint ? " (this device)" : ""
                print("device \(device.fingerprint) \(device.status) \"\(TerminalText.safe(device.name))\" last seen \(seen)\(me)")
            }
        }
    }
}

struct RemoveDevice: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove-device", abstract: "Remove a device and re-key the group, so it reads nothing written afterwards.")
    @OptionGroup var choice: KeychainChoice
    @Argument(help: "The device's fingerprint.")
    var device: String

    func run() async throws {
        try await reporting {
            let removed = try await choice.engine().removeDevice(device)
            print("removed \"\(TerminalText.safe(removed.name))\" (\(removed.fingerprint)); the group has a new key")
        }
    }
}

struct Leave: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Leave the sync group (the others are re-keyed without this device); local items stay.")
    @OptionGroup var choice: KeychainChoice

    func run() async throws {
        try await reporting {
            try await choice.engine().leave()
            print("left the sync group")
        }
    }
}

struct ServerSetup: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "server-setup",
        abstract: "Print the SQL that sets a database up so that each device connects as a role of its own, with least privilege.",
        discussion: """
        An administrator runs it once in the database (psql -d DATABASE -f FILE) before any device joins. Each \
        device then names its own role in its URL, and can change no device row but its own; no device can \
        rewrite or delete the group's roster or key shares.
        """)
    @Option(help: "The role that owns the tables (no device connects as it).")
    var owner = "keychain_sync_owner"
    @Option(name: .customLong("devices-role"), help: "The group role that holds the devices' privileges.")
    var devicesRole = "keychain_sync_device"
    @Option(name: .customLong("device"), help: "A login role to create for one device (repeat for each).")
    var devices: [String] = []

    func validate() throws {
        for name in [owner, devicesRole] + devices where !ServerSchema.isPlainRoleName(name) {
            throw ValidationError("'\(TerminalText.safe(name))' is not a plain role name (lowercase letters, digits and _, not starting with a digit)")
        }
    }

    func run() {
        print(ServerSchema.administratorSQL(owner: owner, deviceGroup: devicesRole, devices: devices), terminator: "")
    }
}
#else
import Foundation

/// What this program is in a build without the Sync trait (the sanitizer runs, a plain
/// `swift build`): SwiftPM still links every executable target, so it says why it cannot sync.
@main
enum KeychainSyncUnavailable {
    static func main() {
        FileHandle.standardError.write(Data("keychain-sync: this build has no sync; build with `--traits Sync` (docs/sync.md)\n".utf8))
        exit(1)
    }
}
#endif
