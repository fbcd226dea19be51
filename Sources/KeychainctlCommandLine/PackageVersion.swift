/// The version of swift-keychain, which `keychainctl --version`, `keychaind --version` and the
/// credential helpers' `--version` print (all link this target).
///
/// This is the one place it is written. Nothing is tagged yet, so the dependency instructions name
/// the `main` branch rather than a version; a release sets this and tags the commit with the same
/// number, and only then can a package depend on it with `from:`.
package enum PackageVersion {
    package static let current = "0.1.0"
}
