// On Apple platforms this module is only a re-export of the Security framework; everywhere else
// the files of this module implement Apple's API. The switch is KEYCHAIN_USE_SYSTEM_FRAMEWORKS,
// set in Package.swift. This anchor keeps the module non-empty (and linkable as a dynamic
// library) when everything else compiles away.
#if KEYCHAIN_USE_SYSTEM_FRAMEWORKS
@_exported import Security
#else
// Apple-style code gets CoreFoundation's names through Security; ours are aliases of Foundation
// classes, so Foundation comes along with this module.
@_exported public import Foundation
#endif

enum _KeychainServicesModuleAnchor {}
