import KeychainSecretService
import KeychainStore

/// The collection calls as a host program with no rule makes them (the shared group alone), for
/// the tests whose subject is not who calls. Tests of the access groups themselves pass an
/// identity (``AccessGroupCollectionTests``).
extension SecretCollection {
    func search(_ attributes: [String: String]) throws(SecretCollectionError) -> [SecretItemRecord] {
        try search(attributes, as: .unconfigured)
    }

    func searchIncludingLocked(_ attributes: [String: String]) throws(SecretCollectionError) -> (records: [SecretItemRecord], lockedIDs: [String]) {
        try searchIncludingLocked(attributes, as: .unconfigured)
    }

    func lockedCandidates(_ attributes: [String: String]) -> [String] { lockedCandidates(attributes, as: .unconfigured) }

    func allItems() throws(SecretCollectionError) -> [SecretItemRecord] { try allItems(as: .unconfigured) }

    func item(id: String, grant: AccessGrant? = nil) throws(SecretCollectionError) -> SecretItemRecord {
        try item(id: id, grant: grant, as: .unconfigured)
    }

    func secret(id: String, grant: AccessGrant? = nil) throws(SecretCollectionError) -> SecretValue {
        try secret(id: id, grant: grant, as: .unconfigured)
    }

    func needsGrant(id: String) -> Bool { needsGrant(id: id, as: .unconfigured) }

    func create(label: String, attributes: [String: String], secret: SecretValue,
                replace: Bool) throws(SecretCollectionError) -> (item: SecretItemRecord, replaced: Bool) {
        try create(label: label, attributes: attributes, secret: secret, replace: replace, as: .unconfigured)
    }

    func setSecret(id: String, _ secret: SecretValue) throws(SecretCollectionError) {
        try setSecret(id: id, secret, as: .unconfigured)
    }

    func setLabel(id: String, _ label: String) throws(SecretCollectionError) {
        try setLabel(id: id, label, as: .unconfigured)
    }

    func setAttributes(id: String, _ attributes: [String: String]) throws(SecretCollectionError) {
        try setAttributes(id: id, attributes, as: .unconfigured)
    }

    func delete(id: String, grant: AccessGrant? = nil) throws(SecretCollectionError) {
        try delete(id: id, grant: grant, as: .unconfigured)
    }
}
