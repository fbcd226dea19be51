#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
public import Foundation

// The functions that turn a result code into words. The codes themselves (SecBase+Codes.swift,
// SecBase+CSSM.swift) and their messages and names (Linux/StatusMessages*.swift) are generated
// from scripts/status-codes.tsv by scripts/generate-status-codes.py.

/// Returns a short English sentence describing a result code.
///
/// Every code declared in this module has its own message; any other number gets a generic
/// sentence that includes the number, so the result is never `nil`. `reserved` is ignored; pass
/// `nil`.
@discardableResult
public func SecCopyErrorMessageString(_ status: OSStatus, _ reserved: UnsafeMutableRawPointer?) -> CFString? {
    statusMessage(status) as NSString
}

/// The constant name of a result code (for example `"errSecItemNotFound"` for -25300), or `nil`
/// for a number this module does not declare. When several names share a number, the public one
/// is returned. For other modules of this package (logs, command-line output); not Apple API.
package func _statusName(_ status: OSStatus) -> String? {
    statusNames[status] ?? extendedStatusEntries[status]?.name
}

/// The message for a result code; a generic sentence with the number for codes not in the table.
func statusMessage(_ status: OSStatus) -> String {
    statusMessages[status] ?? extendedStatusEntries[status]?.message ?? "Unknown error \(status)."
}
#endif
