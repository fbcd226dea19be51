# Sourced by scripts/test.sh, scripts/sanitizers.sh and scripts/demo.sh: the flags every debug
# build of theirs adds (the demo's too, so that the README's two commands share one build).
#
# -Xcc -O2: C code is optimised even in a debug build. SwiftPM compiles C targets of a debug
# build at -O0, swift-crypto's BoringSSL among them, and the tests spend much of their time in
# it: scrypt runs on every keychain password check, AES-GCM on every item. Measured here (two
# cores, busy): one password check 0.45 s of CPU at -O0, 0.10 s at -O2;
# KeychainAuthenticationTests 35 s against 7 s, KeychainStoreTests with KeychainServicesTests
# 560 s against 323 s. Swift code stays unoptimised, so the tests still debug as before.
# A plain `swift test` works too, on a build of its own flags (SwiftPM rebuilds when they change).
debug_build_flags=(-Xcc -O2)
