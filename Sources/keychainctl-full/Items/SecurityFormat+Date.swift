import Foundation
import KeychainctlCommandLine

extension SecurityFormat {
    /// A date as the keychain's time format stores it (``timeDateBytes(referenceSeconds:)``).
    static func timeDateBytes(_ date: Date) -> [UInt8] {
        timeDateBytes(referenceSeconds: date.timeIntervalSinceReferenceDate)
    }
}
