/// How the helper ended, as its exit status, with the one line it prints on standard error.
///
/// pam_keychain.so logs that line to syslog as it is, and picks the log level from the status
/// (pam/pam_keychain.c lists the same numbers): so the line never holds a password, only what
/// happened to which keychain file.
struct HelperExit: Error {
    enum Status: Int32 {
        /// Unlocked, created or re-keyed.
        case done = 0
        /// The keychain could not be opened or changed (damaged, unreadable, no space...).
        case failed = 1
        /// The request or the passwords on standard input were malformed.
        case badInput = 2
        /// Nothing to do: no login keychain, or one without a password.
        case nothingToDo = 3
        /// The password given does not open the login keychain.
        case wrongPassword = 4
        /// The kernel keyring is unavailable, so an unlock would end with this process.
        case noSharedUnlock = 5
    }

    let status: Status
    let message: String

    init(_ status: Status, _ message: String) {
        self.status = status
        self.message = message
    }
}
