enum _KeychainKitPlaceholder {}
