"""GNOME Keyring (gnome-keyring-daemon over the Secret Service D-Bus API).

In-process: libsecret through PyGObject (the C library every GNOME/GTK app uses), one
long-lived client. End-to-end: `secret-tool` (one process per operation). Must run inside a
private session bus with a private, unlocked daemon (private_bus.sh does that; it exports the
daemon's pid as GKD_PID).

Items carry the attributes service/account under secret-tool's own schema name, so that
`secret-tool store` on an existing key replaces the item as a library store does.
"""
import os

import gi

gi.require_version("Secret", "1")
from gi.repository import Secret  # noqa: E402

from common import (SERVICE, existing_keys, filler, fresh, log, run, secret, time_each, vm_hwm_kib,
                    NS, summarize)

SCHEMA = Secret.Schema.new("org.freedesktop.Secret.Generic", Secret.SchemaFlags.NONE,
                           {"service": Secret.SchemaAttributeType.STRING,
                            "account": Secret.SchemaAttributeType.STRING})

CLIENT_PROBE = r"""
import gi, sys
gi.require_version("Secret", "1")
from gi.repository import Secret
S = Secret.Schema.new("org.freedesktop.Secret.Generic", Secret.SchemaFlags.NONE,
    {"service": Secret.SchemaAttributeType.STRING, "account": Secret.SchemaAttributeType.STRING})
for a in sys.argv[1:]:
    assert Secret.password_lookup_sync(S, {"service": "com.example.bench", "account": a}, None)
print(next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM:")))
"""


def store(account, value):
    assert Secret.password_store_sync(SCHEMA, {"service": SERVICE, "account": account},
                                      Secret.COLLECTION_DEFAULT, f"{SERVICE}/{account}", value, None)


def lookup(account):
    assert Secret.password_lookup_sync(SCHEMA, {"service": SERVICE, "account": account}, None)


def clear(account):
    assert Secret.password_clear_sync(SCHEMA, {"service": SERVICE, "account": account}, None)


def keyring_bytes():
    d = os.path.join(os.environ["XDG_DATA_HOME"], "keyrings")
    return sum(os.path.getsize(os.path.join(d, f)) for f in os.listdir(d) if f.endswith(".keyring"))


def ops_for(n, quick):
    return {100: 100, 1000: 40}.get(n, 10) if not quick else {100: 30}.get(n, 10)


def bench(sizes, quick, fill_budget_s, python):
    inproc = {"label": "GNOME Keyring (libsecret)", "mode": "in-process", "sizes": {}, "not_run": {}}
    cli = {"label": "GNOME Keyring (secret-tool)", "mode": "cli", "sizes": {}, "not_run": {}}
    pid = int(os.environ["GKD_PID"])
    filled = 0
    last_add_us = None
    for n in sorted(sizes):
        if last_add_us is not None:
            # Every store rewrites the whole keyring file, so a store costs about in proportion to
            # the item count: the fill from `filled` to n costs about the mean of the two ends.
            estimate = (n - filled) * last_add_us * (1 + n / filled) / 2 / 1e6
            if estimate > fill_budget_s:
                reason = (f"not run: filling {filled:,} -> {n:,} items would take about "
                          f"{estimate / 60:,.0f} min (one store costs {last_add_us / 1000:,.0f} ms at "
                          f"{filled:,} items and grows with the count)")
                inproc["not_run"][str(n)] = reason
                cli["not_run"][str(n)] = reason
                log(f"  gnome-keyring n={n}: {reason}")
                continue
        t0 = NS()
        for i in range(filled, n):
            store(filler(i), secret(i))
        fill_s = (NS() - t0) / 1e9
        filled = n
        m = ops_for(n, quick)
        new = [(fresh(n * 10 + j),) for j in range(m)]
        old = [(filler(k),) for k in existing_keys(n, m, n)]
        r = {"fill_seconds": round(fill_s, 2)}
        r["lookup"] = time_each(lookup, old)
        r["update"] = time_each(lambda a: store(a, "y" * 24), old)
        r["add"] = time_each(lambda a: store(a, "x" * 24), new)
        r["delete"] = time_each(clear, new)
        r["bytes_per_item"] = round(keyring_bytes() / n, 1)
        probe = run([python, "-c", CLIENT_PROBE] + [filler(k) for k in existing_keys(n, 50, 1)])
        r["peak_rss_kib"] = int(probe.stdout.decode().strip())
        r["store_peak_rss_kib"] = vm_hwm_kib(pid)
        last_add_us = r["add"]["median_us"]
        inproc["sizes"][str(n)] = r
        log(f"  gnome-keyring n={n}: add {r['add']['median_us']} us lookup {r['lookup']['median_us']} us")

        mc = 20 if quick else (40 if n <= 1000 else 10)
        cnew = [(fresh(n * 10 + 5000 + j),) for j in range(mc)]
        cold = [(filler(k),) for k in existing_keys(n, mc, n + 1)]
        c = {}

        def cli_lookup(a):
            p = run(["secret-tool", "lookup", "service", SERVICE, "account", a])
            assert p.stdout

        c["lookup"] = time_each(cli_lookup, cold)
        c["update"] = time_each(lambda a: run(["secret-tool", "store", "--label", a, "service", SERVICE, "account", a],
                                              inp=b"u" * 24), cold)
        c["add"] = time_each(lambda a: run(["secret-tool", "store", "--label", a, "service", SERVICE, "account", a],
                                           inp=b"c" * 24), cnew)
        c["delete"] = time_each(lambda a: run(["secret-tool", "clear", "service", SERVICE, "account", a]), cnew)
        cli["sizes"][str(n)] = c
        log(f"  secret-tool n={n}: lookup {c['lookup']['median_us']} us")
    return {"gnome-keyring": inproc, "secret-tool": cli}
