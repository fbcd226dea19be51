#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Foundation
import KeychainStore

/// `kSecMatchItemList`: an array of refs (keys, certificates) or persistent references; a search
/// keeps only the items it names. Any other value names nothing and filters nothing, as Security
/// ignores what it cannot use there.
struct ItemListFilter {
    private let references: [any KeychainItemReference]
    private let persistentReferences: Set<Data>

    init?(_ value: Any?) {
        guard let array = value as? NSArray else { return nil }
        var references: [any KeychainItemReference] = []
        var persistent: Set<Data> = []
        for element in array {
            if let reference = ItemReferences.reference(element) {
                references.append(reference)
            } else if let data = ValueConversion.data(element) {
                persistent.insert(data)
            }
        }
        guard !references.isEmpty || !persistent.isEmpty else { return nil }
        self.references = references
        self.persistentReferences = persistent
    }

    func contains(_ item: StoredItem) -> Bool {
        persistentReferences.contains(item.persistentReferenceData)
            || references.contains { ItemReferences.item(item, matches: $0) }
    }
}
#endif
