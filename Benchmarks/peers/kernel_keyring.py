"""Linux kernel keyring (keyutils): keys held in kernel memory, never on disk.

In-process: libkeyutils through ctypes (add_key / keyctl_search + keyctl_read / add_key on an
existing description, which updates in place / unlink). End-to-end: the `keyctl` command,
one process per operation, looking keys up by description (`%user:<desc>`).

All keys go into a private keyring linked into a new anonymous session keyring of this
process, so the user's own keyrings are never touched, and vanish when the process ends.
The description is "<service>:<account>".
"""
import ctypes
import os

from common import (NS, SERVICE, existing_keys, filler, fresh, log, run, secret, time_each)

ku = ctypes.CDLL("libkeyutils.so.1", use_errno=True)
ku.add_key.restype = ctypes.c_int32
ku.add_key.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int32]
ku.keyctl_search.restype = ctypes.c_long
ku.keyctl_search.argtypes = [ctypes.c_int32, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int32]
ku.keyctl_read.restype = ctypes.c_long
ku.keyctl_read.argtypes = [ctypes.c_int32, ctypes.c_char_p, ctypes.c_size_t]
ku.keyctl_unlink.restype = ctypes.c_long
ku.keyctl_unlink.argtypes = [ctypes.c_int32, ctypes.c_int32]
ku.keyctl_join_session_keyring.restype = ctypes.c_int32
ku.keyctl_join_session_keyring.argtypes = [ctypes.c_char_p]
KEY_SPEC_SESSION_KEYRING = -3


def chk(v):
    if v < 0:
        raise OSError(ctypes.get_errno(), "keyctl failed")
    return v


def key_user_bytes():
    """Bytes the kernel charges this user for keys (qnbytes in /proc/key-users)."""
    uid = os.getuid()
    with open("/proc/key-users") as f:
        for line in f:
            fields = line.split()
            if fields[0].rstrip(":") == str(uid):
                return int(fields[4].split("/")[0])
    return None


def ops_for(n, quick):
    return 200 if quick else 1000


def bench(sizes, quick):
    inproc = {"label": "Kernel keyring (libkeyutils)", "mode": "in-process", "sizes": {}, "not_run": {},
              "note": "keys live in kernel memory only: nothing is durable, bytes per item is kernel quota, not disk"}
    cli = {"label": "Kernel keyring (keyctl)", "mode": "cli", "sizes": {}, "not_run": {}}
    chk(ku.keyctl_join_session_keyring(None))
    kr = chk(ku.add_key(b"keyring", b"swift-keychain-bench", None, 0, KEY_SPEC_SESSION_KEYRING))
    buf = ctypes.create_string_buffer(4096)
    serial = {}

    def desc(a):
        return f"{SERVICE}:{a}".encode()

    def add(a, value):
        serial[a] = chk(ku.add_key(b"user", desc(a), value, len(value), kr))

    def lookup(a):
        k = chk(ku.keyctl_search(kr, b"user", desc(a), 0))
        assert chk(ku.keyctl_read(k, buf, 4096)) == 24

    def update(a, value):
        chk(ku.add_key(b"user", desc(a), value, len(value), kr))

    def delete(a):
        chk(ku.keyctl_unlink(serial.pop(a), kr))

    base_bytes = key_user_bytes()
    filled = 0
    for n in sorted(sizes):
        t0 = NS()
        for i in range(filled, n):
            add(filler(i), secret(i).encode())
        fill_s = (NS() - t0) / 1e9
        filled = n
        m = ops_for(n, quick)
        new = [(fresh(n * 10 + j),) for j in range(m)]
        old = [(filler(k),) for k in existing_keys(n, m, n)]
        r = {"fill_seconds": round(fill_s, 3)}
        r["lookup"] = time_each(lookup, old)
        r["update"] = time_each(lambda a: update(a, b"y" * 24), old)
        r["add"] = time_each(lambda a: add(a, b"x" * 24), new)
        r["delete"] = time_each(delete, new)
        now = key_user_bytes()
        if now is not None and base_bytes is not None:
            r["kernel_bytes_per_item"] = round((now - base_bytes) / n, 1)
        inproc["sizes"][str(n)] = r
        log(f"  kernel keyring n={n}: add {r['add']['median_us']} us lookup {r['lookup']['median_us']} us")

        mc = 50 if quick else 100
        cnew = [(fresh(n * 10 + 5000 + j),) for j in range(mc)]
        cold = [(filler(k),) for k in existing_keys(n, mc, n + 1)]
        c = {}

        def cli_lookup(a):
            assert run(["keyctl", "pipe", "%user:" + desc(a).decode()]).stdout

        c["lookup"] = time_each(cli_lookup, cold)
        c["update"] = time_each(lambda a: run(["keyctl", "padd", "user", desc(a).decode(), str(kr)], inp=b"u" * 24), cold)
        c["add"] = time_each(lambda a: run(["keyctl", "padd", "user", desc(a).decode(), str(kr)], inp=b"c" * 24), cnew)
        c["delete"] = time_each(lambda a: run(["keyctl", "unlink", "%user:" + desc(a).decode(), str(kr)]), cnew)
        cli["sizes"][str(n)] = c
        log(f"  keyctl n={n}: pipe {c['lookup']['median_us']} us")
    return {"kernel-keyring": inproc, "keyctl": cli}
