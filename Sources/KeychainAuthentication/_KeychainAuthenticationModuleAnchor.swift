// On Apple platforms this module re-exports LocalAuthentication; elsewhere it implements the
// parts of it that keychain code uses. The switch is KEYCHAIN_USE_SYSTEM_FRAMEWORKS (Package.swift).
#if KEYCHAIN_USE_SYSTEM_FRAMEWORKS
@_exported import LocalAuthentication
#else
@_exported public import Foundation
#endif

enum _KeychainAuthenticationModuleAnchor {}
