"""Python `keyring` with the file backends of keyrings.alt (what it uses without a desktop).

EncryptedKeyring: one INI file; each value encrypted separately (PBKDF2 + AES-CFB), unlocked by
a keyring password. PlaintextKeyring: the same file with base64 values. Both re-read the whole
file on every call and rewrite it on every change, without locking.

In-process: the `keyring` API in one long-lived process. End-to-end: the `keyring` command
(`keyring get/set/del`) with the plaintext backend (the encrypted one prompts on a terminal).

Pre-fill writes the INI file directly (values encrypted exactly as the backend does), since
filling through the API would rewrite the file once per item.
"""
import base64
import configparser
import getpass
import os
import sys

PASSWORD = "bench-password"
getpass.getpass = lambda *a, **k: PASSWORD  # unlock without a terminal

from keyrings.alt.escape import escape as esc  # noqa: E402
from keyrings.alt.file import EncryptedKeyring, PlaintextKeyring  # noqa: E402

from common import (NS, SERVICE, existing_keys, filler, fresh, log, run, secret, time_each)  # noqa: E402

BACKENDS = {"encrypted": EncryptedKeyring, "plaintext": PlaintextKeyring}

PROBE = r"""
import getpass, sys
getpass.getpass = lambda *a, **k: "bench-password"
from keyrings.alt.file import EncryptedKeyring, PlaintextKeyring
kr = {"encrypted": EncryptedKeyring, "plaintext": PlaintextKeyring}[sys.argv[1]]()
kr.file_path = sys.argv[2]
for a in sys.argv[3:]:
    assert kr.get_password("com.example.bench", a)
print(next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM:")))
"""


def backend(name, path):
    kr = BACKENDS[name]()
    kr.file_path = path
    return kr


def prefill(name, path, n):
    if os.path.exists(path):
        os.unlink(path)
    kr = backend(name, path)
    if name == "encrypted":
        _ = kr.keyring_key  # creates the file with its password check value
    cfg = configparser.RawConfigParser()
    cfg.read(path, encoding="utf-8")
    section = esc(SERVICE)
    if not cfg.has_section(section):
        cfg.add_section(section)
    for i in range(n):
        enc = kr.encrypt(secret(i).encode(), kr._generate_assoc(SERVICE, filler(i)))
        cfg.set(section, esc(filler(i)), "\n" + base64.encodebytes(enc).decode())
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        cfg.write(f)
    os.chmod(path, 0o600)


def ops_for(n, quick):
    if quick:
        return {100: 50, 1000: 20}.get(n, 5)
    return {100: 200, 1000: 100, 10000: 20}.get(n, 5)


def bench_backend(name, sizes, quick, workdir, python):
    out = {"label": f"Python keyring ({'EncryptedKeyring' if name == 'encrypted' else 'PlaintextKeyring'})",
           "mode": "in-process", "sizes": {}, "not_run": {}}
    for n in sorted(sizes):
        path = os.path.join(workdir, f"{name}.cfg")
        t0 = NS()
        prefill(name, path, n)
        fill_s = (NS() - t0) / 1e9
        kr = backend(name, path)
        if name == "encrypted":
            _ = kr.keyring_key
        m = ops_for(n, quick)
        new = [(fresh(n * 10 + j),) for j in range(m)]
        old = [(filler(k),) for k in existing_keys(n, m, n)]
        r = {"fill_seconds": round(fill_s, 2)}

        def get(a):
            assert kr.get_password(SERVICE, a)

        r["lookup"] = time_each(get, old)
        r["update"] = time_each(lambda a: kr.set_password(SERVICE, a, "y" * 24), old)
        r["add"] = time_each(lambda a: kr.set_password(SERVICE, a, "x" * 24), new)
        r["delete"] = time_each(lambda a: kr.delete_password(SERVICE, a), new)
        r["bytes_per_item"] = round(os.path.getsize(path) / n, 1)
        probe = run([python, "-c", PROBE, name, path] + [filler(k) for k in existing_keys(n, 5, 1)])
        r["peak_rss_kib"] = int(probe.stdout.decode().strip())
        out["sizes"][str(n)] = r
        log(f"  python-keyring {name} n={n}: add {r['add']['median_us']} us lookup {r['lookup']['median_us']} us")
    return out


def bench_cli(sizes, quick, workdir, python):
    """`keyring get/set/del` from process start, plaintext backend."""
    out = {"label": "Python keyring (`keyring` CLI, plaintext)", "mode": "cli", "sizes": {}, "not_run": {}}
    data = os.path.join(workdir, "cli-data")
    env = dict(os.environ, PYTHON_KEYRING_BACKEND="keyrings.alt.file.PlaintextKeyring", XDG_DATA_HOME=data)
    # `python -m keyring` rather than a `keyring` script beside the interpreter: pip installs no
    # script into a venv that sees the system's copy of the package.
    kr_cmd = [python, "-m", "keyring"]
    path = os.path.join(data, "python_keyring", "keyring_pass.cfg")
    for n in sorted(sizes):
        prefill("plaintext", path, n)
        m = 10 if quick else (20 if n <= 10000 else 5)
        new = [(fresh(n * 10 + j),) for j in range(m)]
        old = [(filler(k),) for k in existing_keys(n, m, n + 1)]
        c = {}

        def get(a):
            assert run(kr_cmd + ["get", SERVICE, a], env=env).stdout.strip()

        c["lookup"] = time_each(get, old)
        c["update"] = time_each(lambda a: run(kr_cmd + ["set", SERVICE, a], inp=b"u" * 24 + b"\n", env=env), old)
        c["add"] = time_each(lambda a: run(kr_cmd + ["set", SERVICE, a], inp=b"c" * 24 + b"\n", env=env), new)
        c["delete"] = time_each(lambda a: run(kr_cmd + ["del", SERVICE, a], env=env), new)
        out["sizes"][str(n)] = c
        log(f"  keyring CLI n={n}: get {c['lookup']['median_us']} us")
    return out


def bench(sizes, quick, workdir, python):
    return {"python-keyring-encrypted": bench_backend("encrypted", sizes, quick, workdir, python),
            "python-keyring-plaintext": bench_backend("plaintext", sizes, quick, workdir, python),
            "keyring-cli": bench_cli(sizes, quick, workdir, python)}
