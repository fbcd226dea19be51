import Foundation

/// A private folder for a target that writes a keychain: the one run.sh gives
/// (`SWIFT_KEYCHAIN_FUZZ_DIR`, on tmpfs when there is one, since every add commits), or one in
/// the temporary folder; named for the target and this process, mode 0700.
public func fuzzScratchFolder(_ name: String) -> URL {
    let given = ProcessInfo.processInfo.environment["SWIFT_KEYCHAIN_FUZZ_DIR"]
    let base = given.map { URL(fileURLWithPath: $0) } ?? FileManager.default.temporaryDirectory
    let url = base.appendingPathComponent("swift-keychain-\(name)-\(getpid())")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    return url
}
