import KeychainDBus

/// The names the Secret Service specification fixes: the bus name, object paths, interfaces and
/// error names. Defined once; the handlers refer to them by these names.
package enum SecretServiceNames {
    package static let busName = "org.freedesktop.secrets"
    package static let root = "/org/freedesktop/secrets"
    package static let collectionPrefix = root + "/collection/"
    package static let aliasPrefix = root + "/aliases/"
    package static let sessionPrefix = root + "/session/"
    package static let promptPrefix = root + "/prompt/"
    /// The path that means "none" (no prompt needed, no such alias).
    package static let noObject = "/"

    package static let serviceInterface = "org.freedesktop.Secret.Service"
    package static let collectionInterface = "org.freedesktop.Secret.Collection"
    package static let itemInterface = "org.freedesktop.Secret.Item"
    package static let sessionInterface = "org.freedesktop.Secret.Session"
    package static let promptInterface = "org.freedesktop.Secret.Prompt"
    package static let propertiesInterface = "org.freedesktop.DBus.Properties"
    package static let introspectableInterface = "org.freedesktop.DBus.Introspectable"

    /// The spec's `Secret` struct: session, parameters, value, content type.
    package static let secretType = "(oayays)"

    /// Property names as `CreateItem` and `CreateCollection` receive them.
    package static let itemLabelProperty = itemInterface + "." + SecretServiceProperties.label
    package static let itemAttributesProperty = itemInterface + "." + SecretServiceProperties.attributes
    package static let collectionLabelProperty = collectionInterface + "." + SecretServiceProperties.label

    /// The collection names this daemon serves from the start: the login keychain (while its
    /// file exists) and the in-memory session collection.
    package static let loginCollection = "login"
    package static let sessionCollection = "session"
    /// The login keychain's collection label.
    package static let loginLabel = "Login"
    /// Aliases every client expects: `default` and `login` are the login keychain, until a
    /// client points `default` elsewhere (`SetAlias`).
    package static let builtInAliases = [defaultAlias: loginCollection, loginCollection: loginCollection, sessionCollection: sessionCollection]
    package static let defaultAlias = "default"
    /// The aliases `SetAlias` cannot move: what they mean is fixed.
    package static let fixedAliases: Set<String> = [loginCollection, sessionCollection]
    /// Names no new collection takes.
    package static let reservedCollectionNames: Set<String> = [loginCollection, sessionCollection]
}

/// The property names of the spec's interfaces, for the interface tables and the
/// `PropertiesChanged` signals that name them.
package enum SecretServiceProperties {
    package static let collections = "Collections"
    package static let items = "Items"
    package static let label = "Label"
    package static let locked = "Locked"
    package static let created = "Created"
    package static let modified = "Modified"
    package static let attributes = "Attributes"
}

/// The error names a reply may carry (the spec's own, then D-Bus's standard ones).
package enum SecretServiceError {
    package static let isLocked = "org.freedesktop.Secret.Error.IsLocked"
    package static let noSession = "org.freedesktop.Secret.Error.NoSession"
    package static let noSuchObject = "org.freedesktop.Secret.Error.NoSuchObject"
    package static let notSupported = "org.freedesktop.DBus.Error.NotSupported"
    package static let invalidArgs = DBusError.invalidArgsName
    package static let unknownMethod = DBusError.unknownMethodName
    package static let unknownObject = "org.freedesktop.DBus.Error.UnknownObject"
    package static let unknownProperty = DBusError.unknownPropertyName
    package static let propertyReadOnly = DBusError.propertyReadOnlyName
    package static let failed = DBusError.failedName
    package static let accessDenied = "org.freedesktop.DBus.Error.AccessDenied"
}
