import Foundation

/// Keyring files written by the real programs on Debian 12, kept so that the readers are tested
/// on the bytes those programs write without needing them at test time (the end-to-end tests in
/// KeychainDaemonTests/GnomeKeyringImportTests.swift make fresh ones each run).
///
/// - `legacy`: gnome-keyring-daemon 42.1 (`--unlock --components=secrets`, password `pw-legacy`),
///   `login.keyring` after three `secret-tool store` calls (libsecret 0.20.5): a service/username
///   item labelled `Mail ✉ login` (`hunter2`), a network-password item with `xdg:schema`
///   `org.gnome.keyring.NetworkPassword` (`tok`), and `app=foo color=blue` (the bytes `bin 01 FF x`).
/// - `v1`: the same three `secret-tool store` calls through libsecret 0.20.5's file backend
///   (`SECRET_BACKEND=file SECRET_FILE_TEST_PATH=… SECRET_FILE_TEST_PASSWORD=pw-v1`).
enum GnomeKeyringFixtures {
    static let legacyPassword = "pw-legacy"
    static let v1Password = "pw-v1"

    static let legacy = Data(base64Encoded: [
        "R25vbWVLZXlyaW5nCg0ACgAAAAAAAAAFTG9naW4AAAAAAAAAAAAAAABrBtKuAAAAAAAAAAAAAAqtri1MifN7cpcAAAAAAAAAAAAA",
        "AAAAAAAAAAAAAwAAAAIAAAABAAAABgAAAAZvYmplY3QAAAAAAAAAIGYxMGExODY3YjgwMGU5NWMwOTgxNjVkOTUxN2E3ZDZiAAAA",
        "BHBvcnQAAAAAAAAAIDdlNmIyMGQwMTRkMWM2NTllNGVhZjIwZGMyZGNkN2ViAAAACHByb3RvY29sAAAAAAAAACA1ZTA1NmM1MDBh",
        "MWM0YjZhNzExMGI1MGQ4MDdiYWRlNQAAAAZzZXJ2ZXIAAAAAAAAAIGE1MGRmNzc5YzYwM2NjODg2ZGIyMGMxZTFkMzgzY2MzAAAA",
        "BHVzZXIAAAAAAAAAIDlmOWQ1MWJjNzBlZjIxY2E1YzE0ZjMwNzk4MGEyOWQ4AAAACnhkZzpzY2hlbWEAAAAAAAAAIDM1ZmE1NGY1",
        "YTEzNDI5ZDlhOGNjODUyNzU0MjY1MDQ5AAAAAwAAAAAAAAACAAAAA2FwcAAAAAAAAAAgYWNiZDE4ZGI0Y2MyZjg1Y2VkZWY2NTRm",
        "Y2NjNGE0ZDgAAAAFY29sb3IAAAAAAAAAIDQ4ZDYyMTU5MDNkZmY1NjIzOGU1MmU4ODkxMzgwYzhmAAAAAQAAAAAAAAACAAAAB3Nl",
        "cnZpY2UAAAAAAAAAIDBjM2E2MzdkZjE1MmEyM2U3NjAzNDQwMGVjMDA2ZDIxAAAACHVzZXJuYW1lAAAAAAAAACA3ZTBkN2Y4YTVk",
        "OTZjMjRmZmNjODQwZjMxYmNlNzJiMgAAAgDz1lv7P2dFeY4JdwJCY9HTQzjupxP++a91EI7tZaJXO6FrfoC4AlK2xCkbwSgqN3vG",
        "o4JFW+TCmu6Jh37CYMUW4twq2EHfs+HY/9xEIR86zKSwZrhFlWOkAbgVuxOAgLBDS2pcwkpAmac1OnhForeaZ6gQHXNWVuqN+9Pd",
        "Rr7f3o/LDT5fgc67a0wDsvDxEaH/qgCBJh/eT/GX5j/9gwuAJD6J0JZBu+cKRbEwGWJ/9UsD+wy71T27iyKJVGHICbgyJVF3a2zR",
        "k7X9uh16GJYQc4DrFNvoX4QM5d5FYBgrhExOigPZdhvp1yeo4DsPudEtB8aziYUtEsrHpPlLOk0z9lLbrYLuxtTisT87vBLwfq5g",
        "+pXpFWdXK4HYAFS9SkSCXfT3tjnrfo0uZWKg3McPl0uEjebCV/+v8O7+j3KpOTWe72UtTVquP2qjO6Yvw5kxbX//W+3Mt2z8npzM",
        "BCcPRLJaJ6xwkHfmwcQw6kB3VNbInzxDLkPUyVOtzYSaa3a/Pg7s+BYsVsgBsbYIGeYErOZKP4fCO/I52tWFxmsqfMk85rPgS3C+",
        "sn9XdyUI/zPjP/PdskTbAdCZl99MWi9S1Hr7UO8Hik0S/Vh9e3BP2q4UdM7bwdd/4PnbFhHrBdMZGl6UYcXuhv9uypS1Dutplb5D",
        "PNQIw+R+ZDVKALAQPQ==",
    ].joined())!

    static let v1 = Data(base64Encoded: [
        "R25vbWVLZXlyaW5nCg0ACgEAIAAAABH8ZS3l9JXlhSHpUTYiZPSUkSAuxOBJ+JgeveYAjEHMoIYBAJDTBmsAAAAAAwAAAHNlcnZp",
        "Y2UAh0cx3j7S4OaE76Sz/IGmAcijObSZHU0eDwMnMTgSBlcIdXNlcm5hbWUAYRL+ap3u4RkxSdam2Yt1ZuyFWyS5dBndZuHnujyH",
        "i1IJKVODA6mArFjjxAZanevJ0ETljHTpOCJVd34xcN9b79IzZjAy0JIKcUphgLLobLHG4fjbOtKiNQeHAQSFzGz4vwATaforeqgz",
        "Rreuxn8+V4biaX1r3ziVCMIkLQBtXV5gZrdfTuUawA5CfsFPhgknV1RLZpS85Jp8Y5cr0JZlQgf9p0F7k59E/fPnVExH46nLPyNV",
        "b2JqZWN0AFepWkzEgV2CUU2a6CwwCHrRVsRUK+cnqcty1taZa+n6B3BvcnQAn6xRVeHy2hSrVGVD0sJa4j6vvFTwlKV/OfuTcYDi",
        "O5YFcHJvdG9jb2wAu5Sx70NgO3o0NfwL+yCzZ8RpBuqgF6lRqxc6i0/pR44Jc2VydmVyAKntHS8MLVkMBD6ULFmoh54BoMfF0pew",
        "wyQXmxbJegqPB3VzZXIASIzb8ORZ+yiql3EAHn5w2BZBC2KPc95f4xkML0VydbMFeGRnOnNjaGVtYQA4JVe6WpD/Y9b42lwD5ug/",
        "0SmoHw8Nq7IGpqoYvm24iQsoTnigxvKP1wlaFymLF8ZJ85Ve5ycqnUXBGfoUCg9Tc9tiQozg8zvVxwnfn2FpmDyJSJSiUTiqrl0B",
        "KTAb2lZIdQC3LJ9DAy8qFUpLZv+hGaw6mp6fH64DfFjsuUGOq1VU4bMXyoyui9UAHUgYMtYkYJugQBWZC4nVd0LIj81FEcPj9MT2",
        "blE0kMrldkCMsunmunsL7ij9vKdu0Yo4dqetYFhbtbnqTPFyKCwXI+7Iw9gtOoqaUHKR4ekIhiynyzl27/kcZoVgaj4Ll/AAWGT/",
        "gCvHz1wKHbkcbjfex35oTdiPJtXnRN+xyAGiv6rhD0GeKhnFw7j4AGFwcAByeB7400fHcB2Lb7Y78qJtEFqmTXAfeVo3s2o0VVs3",
        "ewRjb2xvcgCvt+mKIroZJ6yURUula9XXAC5gv9Wa1xKF8qvrAtArYAYlTHUgW/Vc3Hgfv83CIxcU5OZlCn0sMGUC3D6uQQenDo4E",
        "lPa+irjhnCJv+aRp2rtQ6QPHPcYEYy6v/i6pMyMNK2mC2/l4iodL8EffiiLOsoD7pdojATtP0GWpZ9arWIW68gTMNkAGnJFvbq9L",
        "dBEjWrZO5gDQAo8DJAA=",
    ].joined())!
}
