import ArgumentParser
import Foundation
import KeychainServices

/// `create-keypair`: generates a key pair and stores both halves, as `security create-keypair`.
struct CreateKeypair: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create-keypair",
        abstract: "Create an asymmetric key pair.",
        discussion: """
            Generates a key pair with SecKeyCreateRandomKey and stores the private and the public \
            key in the keychain, labelled NAME. -a is rsa (the default) or ec (ecdsa is the same); \
            -s is the size in bits (default 2048 for rsa, 256 for ec; ec takes 256, 384 or 521). \
            -f, -t and -d set the keys' start and end dates. -A and -T are accepted for \
            compatibility and change nothing: items here have no per-application access lists. \
            dh, dsa and fee keys are not supported (errSecUnimplemented, exit 252). The dates are part of \
            a key's identity in the keychain, as on Apple platforms.
            """)

    @Option(name: .customShort("a"), help: ArgumentHelp("The algorithm: rsa, ec or ed25519.", valueName: "alg"))
    var algorithm = "rsa"

    @Option(name: .customShort("s"), help: ArgumentHelp("The key size in bits.", valueName: "size"))
    var size: Int?

    @Option(name: .customShort("f"), help: ArgumentHelp("Valid from this date (YYYY-MM-DD).", valueName: "date"))
    var from: String?

    @Option(name: .customShort("t"), help: ArgumentHelp("Valid until this date (YYYY-MM-DD).", valueName: "date"))
    var to: String?

    @Option(name: .customShort("d"), help: ArgumentHelp("Valid for this many days from today.", valueName: "days"))
    var days: Int?

    @Option(name: .customShort("k"), help: ArgumentHelp("The keychain (the same as --keychain).", valueName: "keychain"))
    var targetKeychain: String?

    @Option(name: [.customShort("g"), .customLong("tag")], help: ArgumentHelp("An application tag for both keys (keychainctl's own option).", valueName: "tag"))
    var tag: String?

    @Flag(name: .customShort("A"), help: "Accepted for compatibility; no effect.")
    var anyApplication = false

    @Option(name: .customShort("T"), help: ArgumentHelp("Accepted for compatibility; no effect.", valueName: "appPath"))
    var applications: [String] = []

    @OptionGroup var location: KeychainOption

    @Argument(help: ArgumentHelp("The keys' label.", valueName: "name"))
    var name: String

    func validate() throws {
        if targetKeychain != nil && location.keychain != nil { throw ValidationError("Give -k or --keychain, not both.") }
        if to != nil && days != nil { throw ValidationError("Give -t or -d, not both.") }
    }

    func run() throws {
        let context = "SecKeyCreateRandomKey"
        let target = KeychainSession.targets(location.named([targetKeychain].compactMap { $0 }))[0]
        _ = try KeychainSession.openForItems(target, accessGroup: nil)
        let type: CFString
        switch algorithm.lowercased() {
        case "rsa": type = kSecAttrKeyTypeRSA
        case "ec", "ecdsa": type = kSecAttrKeyTypeECSECPrimeRandom
        case "ed25519": type = kSecAttrKeyTypeEd25519
        case "dh", "dsa", "fee": throw CommandFailure.status(errSecUnimplemented, context)
        default: throw ValidationError("-a is rsa, ec or ed25519.")
        }
        var parameters: [String: Any] = [
            kSecAttrKeyType as String: type,
            kSecAttrKeySizeInBits as String: size ?? (type == kSecAttrKeyTypeRSA ? 2048 : 256),
            kSecAttrIsPermanent as String: true,
            kSecAttrLabel as String: name,
        ]
        if let tag { parameters[kSecAttrApplicationTag as String] = Data(tag.utf8) }
        if let from { parameters["sdat"] = try Self.date(from) }
        if let to { parameters["edat"] = try Self.date(to) }
        if let days { parameters["edat"] = Date().addingTimeInterval(Double(days) * 86_400) }
        var error: Unmanaged<CFError>?
        guard SecKeyCreateRandomKey(parameters as CFDictionary, &error) != nil else {
            let status = error.map { OSStatus(truncatingIfNeeded: CFErrorGetCode($0.takeRetainedValue())) } ?? errSecInternal
            throw CommandFailure.status(status, context).about(target)
        }
    }

    static func date(_ text: String) throws -> Date {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        guard let date = formatter.date(from: text) else { throw ValidationError("Dates are YYYY-MM-DD: \(text)") }
        return date
    }
}
