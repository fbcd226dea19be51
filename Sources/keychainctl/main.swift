print("keychainctl: not yet")
