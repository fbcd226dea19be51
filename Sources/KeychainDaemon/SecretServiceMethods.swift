/// Every method the daemon answers, by interface, with the signature of its arguments: the one
/// table the handlers match calls against. A call of a known method with other arguments is
/// `InvalidArgs`; a method not listed is `UnknownMethod`.
enum SecretServiceMethods {
    static let signatures: [String: [String: String]] = [
        SecretServiceNames.serviceInterface: [
            "OpenSession": "sv", "CreateCollection": "a{sv}s", "SearchItems": "a{ss}", "Unlock": "ao", "Lock": "ao",
            "GetSecrets": "aoo", "ReadAlias": "s", "SetAlias": "so",
        ],
        SecretServiceNames.collectionInterface: ["Delete": "", "SearchItems": "a{ss}", "CreateItem": "a{sv}(oayays)b"],
        SecretServiceNames.itemInterface: ["Delete": "", "GetSecret": "o", "SetSecret": "(oayays)"],
        SecretServiceNames.sessionInterface: ["Close": ""],
        SecretServiceNames.promptInterface: ["Prompt": "s", "Dismiss": ""],
        SecretServiceNames.propertiesInterface: ["Get": "ss", "GetAll": "s", "Set": "ssv"],
        SecretServiceNames.introspectableInterface: ["Introspect": ""],
    ]

    /// The signature `member` of `interface` takes, if it is one of ours.
    static func signature(_ interface: String, _ member: String) -> String? { signatures[interface]?[member] }
}
