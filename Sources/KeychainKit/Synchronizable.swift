/// Whether the items of a ``Keychain`` are synchronized to the user's other devices
/// (`kSecAttrSynchronizable`).
///
/// `sync` is part of an item's identity: a synchronized and a local item with the same key are
/// two items. ``any`` reads, lists and removes both.
public enum Synchronizable: Sendable, Hashable {
    /// Items that stay on this device (the keychain's default when nothing is said).
    case no
    /// Items synchronized through the user's cloud keychain.
    case yes
    /// Both kinds when reading, listing or removing. `set` updates whichever copies exist and
    /// adds a local item when there is none; `add` refuses when either copy exists.
    case any

    /// ``yes`` for true, ``no`` for false.
    public init(_ synchronized: Bool) {
        self = synchronized ? .yes : .no
    }
}
