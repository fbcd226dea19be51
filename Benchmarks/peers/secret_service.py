"""keychaind against gnome-keyring-daemon as the Secret Service: side by side, in one run.

usage: secret_service.py run --keychaind PATH [--keychainctl PATH] --out JSON [--png PNG]
                             [--sizes 1000,10000] [--quick] [--gkr-fill-budget SECONDS]
       secret_service.py worker      (internal: one long-lived libsecret client, commands on stdin)

Each provider gets its own private dbus-daemon (a config with no service directories, so nothing
can be activated behind our back) and its own throw-away HOME/XDG folders under a temp folder on
the real disk; keychaind serves a fresh keychain there, gnome-keyring-daemon (--foreground
--unlock --components=secrets, password on stdin) a fresh login keyring. Each provider has one
long-lived client process (this file, `worker`: libsecret through PyGObject, sync API, as
gnome_keyring.py uses it); the two clients never run at the same time: every measurement is
split in rounds that alternate between the providers (ours first in even rounds, theirs first in
odd ones), so a slow phase of the shared machine hits both alike.

Items: attributes service=com.example.bench, username=user-000000i, plus the xdg:schema
(org.freedesktop.Secret.Generic) libsecret adds; a 24-byte secret; label service/account.

Populating: both providers are filled to the first size through the same libsecret store calls.
For a larger size, keychaind is filled the same way; gnome-keyring rewrites its whole file on
every change (a store costs about 32 us per item already stored), so unless the estimated D-Bus
fill fits --gkr-fill-budget its daemon is stopped, its login.keyring written directly with the
same items in its own format (gkr_file.py) and the daemon restarted to load it; the JSON says
which way each size was filled and how long it took.
"""
import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from common import NS, SERVICE, existing_keys, filler, fresh, log, secret, summarize  # noqa: E402

BUS_NAME = "org.freedesktop.secrets"
SCHEMA_NAME = "org.freedesktop.Secret.Generic"
PASSWORD = "bench-password"
# RFC 2409 group 2, the DH group of dh-ietf1024-sha256-aes128-cbc-pkcs7.
MODP1024 = int("FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A0879"
               "8E3404DDEF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B"
               "0BFF5CB6F406B7EDEE386BFB5A899FA5AE9F24117C4B1FE649286651ECE65381FFFFFFFFFFFFFFFF", 16)


def attributes(account):
    return {"service": SERVICE, "username": account}


def label(account):
    return f"{SERVICE}/{account}"


# ----------------------------------------------------------------------------------------------
# The client: one long-lived process per provider, talking to it through libsecret.

def worker():
    import gi
    gi.require_version("Secret", "1")
    from gi.repository import Gio, GLib, Secret

    schema = Secret.Schema.new(SCHEMA_NAME, Secret.SchemaFlags.NONE,
                               {"service": Secret.SchemaAttributeType.STRING,
                                "username": Secret.SchemaAttributeType.STRING})
    bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)

    def store(account, value):
        assert Secret.password_store_sync(schema, attributes(account), Secret.COLLECTION_DEFAULT,
                                          label(account), value, None), account

    def lookup(account, expected):
        got = Secret.password_lookup_sync(schema, attributes(account), None)
        assert got == expected, f"{account}: {got!r} != {expected!r}"

    def clear(account):
        assert Secret.password_clear_sync(schema, attributes(account), None), account

    def call(path, interface, method, args=None, reply=None):
        return bus.call_sync(BUS_NAME, path, interface, method, args,
                             GLib.VariantType(reply) if reply else None, Gio.DBusCallFlags.NONE, -1, None)

    def timed(fn, *a):
        t = NS()
        out = fn(*a)
        return NS() - t, out

    def phases(pairs):
        """The calls behind one libsecret lookup, timed one by one on a raw connection."""
        out = {"ping": [], "search_items": [], "get_secret": [], "open_session_plain": [],
               "open_session_dh": []}
        svc, sv = "/org/freedesktop/secrets", "org.freedesktop.Secret.Service"
        for account, expected in pairs:
            out["ping"].append(timed(call, svc, "org.freedesktop.DBus.Peer", "Ping")[0])
            t, (_, session) = timed(call, svc, sv, "OpenSession",
                                    GLib.Variant("(sv)", ("plain", GLib.Variant("s", ""))), "(vo)")
            out["open_session_plain"].append(t)
            query = dict(attributes(account), **{"xdg:schema": SCHEMA_NAME})
            t, (unlocked, _) = timed(call, svc, sv, "SearchItems", GLib.Variant("(a{ss})", (query,)), "(aoao)")
            out["search_items"].append(t)
            assert len(unlocked) == 1, (account, unlocked)
            t, (value,) = timed(call, unlocked[0], "org.freedesktop.Secret.Item", "GetSecret",
                                GLib.Variant("(o)", (session,)), "((oayays))")
            out["get_secret"].append(t)
            assert bytes(value[2]).decode() == expected
            call(session, "org.freedesktop.Secret.Session", "Close")
            x = random.getrandbits(1024)
            public = pow(2, x, MODP1024).to_bytes(128, "big")
            t, (_, session) = timed(call, svc, sv, "OpenSession",
                                    GLib.Variant("(sv)", ("dh-ietf1024-sha256-aes128-cbc-pkcs7",
                                                          GLib.Variant("ay", public))), "(vo)")
            out["open_session_dh"].append(t)
            call(session, "org.freedesktop.Secret.Session", "Close")
        return out

    for line in sys.stdin:
        cmd = json.loads(line)
        op = cmd["op"]
        try:
            if op == "quit":
                break
            elif op == "store":
                res = {"ns": [timed(store, a, v)[0] for a, v in cmd["pairs"]]}
            elif op == "lookup":
                res = {"ns": [timed(lookup, a, v)[0] for a, v in cmd["pairs"]]}
            elif op == "clear":
                res = {"ns": [timed(clear, a)[0] for a in cmd["accounts"]]}
            elif op == "fill":
                lat = [timed(store, filler(i), secret(i))[0] for i in range(cmd["start"], cmd["end"])]
                res = {"seconds": round(sum(lat) / 1e9, 2), "store": summarize(lat)}
            elif op == "phases":
                res = phases(cmd["pairs"])
            elif op == "count":
                unlocked, locked = call("/org/freedesktop/secrets", "org.freedesktop.Secret.Service", "SearchItems",
                                        GLib.Variant("(a{ss})", ({"service": SERVICE},)), "(aoao)")
                res = {"unlocked": len(unlocked), "locked": len(locked)}
            else:
                raise ValueError(op)
        except Exception as error:  # reported to the orchestrator, which stops the run
            res = {"error": f"{type(error).__name__}: {error}"}
        sys.stdout.write(json.dumps(res) + "\n")
        sys.stdout.flush()


# ----------------------------------------------------------------------------------------------
# The orchestrator: buses, daemons, clients, rounds.

BUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path={socket}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"""

STARTED = []  # every process we started, stopped in reverse order at the end


def start(cmd, **kw):
    p = subprocess.Popen(cmd, **kw)
    STARTED.append(p)
    return p


def stop(p, grace=5.0):
    if p.poll() is None:
        p.terminate()
        try:
            p.wait(grace)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
    if p in STARTED:
        STARTED.remove(p)


def stop_all():
    for p in reversed(list(STARTED)):
        stop(p)


def status_kib(pid, field):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


class Provider:
    """One Secret Service provider on its own private bus, with its own client process."""

    def __init__(self, key, label, root):
        self.key, self.label, self.root = key, label, root
        self.home = os.path.join(root, "home")
        self.env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8", "HOME": self.home,
                    "XDG_DATA_HOME": os.path.join(self.home, ".local/share"),
                    "XDG_CONFIG_HOME": os.path.join(self.home, ".config"),
                    "XDG_CACHE_HOME": os.path.join(self.home, ".cache"),
                    "XDG_RUNTIME_DIR": os.path.join(root, "run")}
        for d in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"):
            os.makedirs(self.env[d], mode=0o700, exist_ok=True)
        os.makedirs(self.env["XDG_RUNTIME_DIR"], mode=0o700, exist_ok=True)
        self.bus = self.daemon = self.client = None

    def start_bus(self):
        conf = os.path.join(self.root, "bus.conf")
        with open(conf, "w") as f:
            f.write(BUS_CONFIG.format(socket=os.path.join(self.root, "bus.sock")))
        self.bus = start(["dbus-daemon", "--config-file=" + conf, "--nofork", "--print-address=1"],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=self.env)
        self.env["DBUS_SESSION_BUS_ADDRESS"] = self.bus.stdout.readline().decode().strip()
        assert self.env["DBUS_SESSION_BUS_ADDRESS"], "dbus-daemon gave no address"

    def wait_for_name(self, timeout=30.0):
        end = time.time() + timeout
        while time.time() < end:
            if self.daemon.poll() is not None:
                raise RuntimeError(f"{self.label} exited {self.daemon.returncode}: {self.daemon_log()}")
            p = subprocess.run(["dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.DBus", "/",
                                "org.freedesktop.DBus.NameHasOwner", "string:" + BUS_NAME],
                               env=self.env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            if b"boolean true" in p.stdout:
                return
            time.sleep(0.05)
        raise RuntimeError(f"{self.label} did not take {BUS_NAME}: {self.daemon_log()}")

    def daemon_log(self):
        try:
            return open(os.path.join(self.root, "daemon.err")).read()[-500:]
        except OSError:
            return ""

    def start_client(self, python):
        self.client = start([python, os.path.abspath(__file__), "worker"], env=self.env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def ask(self, **cmd):
        self.client.stdin.write((json.dumps(cmd) + "\n").encode())
        self.client.stdin.flush()
        line = self.client.stdout.readline()
        if not line:
            raise RuntimeError(f"{self.label} client died")
        res = json.loads(line)
        if "error" in res:
            raise RuntimeError(f"{self.label}: {cmd['op']}: {res['error']}")
        return res

    def stop_client(self):
        if self.client:
            try:
                self.ask(op="quit")
            except Exception:
                pass
            stop(self.client)
            self.client = None

    def memory(self):
        pid = self.daemon.pid
        return {"vm_rss_kib": status_kib(pid, "VmRSS"), "vm_hwm_kib": status_kib(pid, "VmHWM")}

    def stop(self):
        self.stop_client()
        for p in (self.daemon, self.bus):
            if p:
                stop(p)


class Ours(Provider):
    def __init__(self, root, keychaind):
        super().__init__("keychaind", "keychaind", root)
        self.keychaind = keychaind
        self.env["SWIFT_KEYCHAIN_PATH"] = os.path.join(self.env["XDG_DATA_HOME"], "keychains", "login.keychain-db")
        self.env["SWIFT_KEYCHAIN_DEVICE_KEY_FILE"] = os.path.join(self.env["XDG_CONFIG_HOME"], "swift-keychain",
                                                                  "device-key")
        assert not self.env["SWIFT_KEYCHAIN_PATH"].startswith(os.path.expanduser("~/.local"))

    def start(self):
        self.start_bus()
        t = NS()
        self.daemon = start([self.keychaind, "--log-level", "warning"], env=self.env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=open(os.path.join(self.root, "daemon.err"), "ab"))
        self.wait_for_name()
        return (NS() - t) / 1e9

    def file_bytes(self):
        p = self.env["SWIFT_KEYCHAIN_PATH"]
        return sum(os.path.getsize(f) for f in (p, p + "-wal") if os.path.exists(f))


class Gkr(Provider):
    def __init__(self, root):
        super().__init__("gnome-keyring", "gnome-keyring", root)
        self.keyrings = os.path.join(self.env["XDG_DATA_HOME"], "keyrings")

    def start(self):
        self.start_bus()
        t = NS()
        self.daemon = start(["gnome-keyring-daemon", "--foreground", "--unlock", "--components=secrets"],
                            env=self.env, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            stderr=open(os.path.join(self.root, "daemon.err"), "ab"))
        self.daemon.stdin.write(PASSWORD.encode())
        self.daemon.stdin.close()
        self.wait_for_name()
        return (NS() - t) / 1e9

    def write_file(self, n):
        import gkr_file
        os.makedirs(self.keyrings, mode=0o700, exist_ok=True)
        items = [(label(filler(i)), dict(attributes(filler(i)), **{"xdg:schema": SCHEMA_NAME}), secret(i))
                 for i in range(n)]
        size = gkr_file.write(os.path.join(self.keyrings, "login.keyring"), PASSWORD, items)
        with open(os.path.join(self.keyrings, "default"), "w") as f:
            f.write("login")
        return size

    def file_items(self):
        import gkr_file
        return len(gkr_file.read(os.path.join(self.keyrings, "login.keyring"), PASSWORD))

    def file_bytes(self):
        p = os.path.join(self.keyrings, "login.keyring")
        return os.path.getsize(p) if os.path.exists(p) else None


def loadavg():
    return open("/proc/loadavg").read().split()[:3]


def alternate(providers, rounds, make_cmd, key="ns"):
    """Runs make_cmd(provider, round) on each provider, round by round, never two at once.
    Even rounds start with the first provider, odd ones with the second. Each turn starts with
    nothing left to write back (sync)."""
    out = {p.key: [] for p in providers}
    for r in range(rounds):
        for p in (providers if r % 2 == 0 else providers[::-1]):
            # The disk too: gnome-keyring's last turn may have left megabytes to write back, and
            # on ext4 the next fsync (ours, in a store) would wait for them.
            os.sync()
            res = p.ask(**make_cmd(p, r))
            if key:
                out[p.key].extend(res[key])
            else:
                for name, values in res.items():
                    out[p.key].append((name, values))
    return out


def cli_lookups(providers, accounts):
    """`secret-tool lookup` from process start to exit, one process per lookup, alternating."""
    out = {p.key: [] for p in providers}
    for j, k in enumerate(accounts):
        for p in (providers if j % 2 == 0 else providers[::-1]):
            t = NS()
            r = subprocess.run(["secret-tool", "lookup", "service", SERVICE, "username", filler(k)],
                               env=p.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            out[p.key].append(NS() - t)
            assert r.returncode == 0 and r.stdout.decode().strip() == secret(k), (p.key, r)
    return {key: summarize(v) for key, v in out.items()}


def plan(n, quick):
    """(lookup rounds, lookups per round, creates per round ours, creates per round gkr, create rounds,
    phase rounds, phases per round, secret-tool runs)"""
    if quick:
        return dict(lookup_rounds=4, lookups=50, create_rounds=2, creates_ours=10, creates_gkr=5,
                    phase_rounds=2, phases=20, cli=20)
    return dict(lookup_rounds=10, lookups=100, create_rounds=4 if n <= 2000 else 2,
                creates_ours=25, creates_gkr=25 if n <= 2000 else 5, phase_rounds=4, phases=50, cli=100)


def measure(ours, gkr, n, quick, python):
    both = [ours, gkr]
    p = plan(n, quick)
    r = {"plan": p, "loadavg_before": loadavg()}
    # Warm-up: the first libsecret call of a client opens its session (DH); not measured.
    for prov in both:
        prov.ask(op="lookup", pairs=[[filler(0), secret(0)]])
    total = p["lookup_rounds"] * p["lookups"]
    keys = existing_keys(n, total, n)
    pairs = [[filler(k), secret(k)] for k in keys]
    log(f"  n={n}: libsecret lookups, {p['lookup_rounds']} rounds x {p['lookups']} per provider")
    lat = alternate(both, p["lookup_rounds"],
                    lambda prov, i: {"op": "lookup", "pairs": pairs[i * p["lookups"]:(i + 1) * p["lookups"]]})
    r["lookup"] = {k: summarize(v) for k, v in lat.items()}

    log(f"  n={n}: the D-Bus calls behind a lookup, {p['phase_rounds']} rounds x {p['phases']}")
    ph = alternate(both, p["phase_rounds"],
                   lambda prov, i: {"op": "phases", "pairs": pairs[i * p["phases"]:(i + 1) * p["phases"]]}, key=None)
    r["calls"] = {}
    for k, parts in ph.items():
        merged = {}
        for name, values in parts:
            merged.setdefault(name, []).extend(values)
        r["calls"][k] = {name: summarize(v) for name, v in merged.items()}

    log(f"  n={n}: CreateItem (new items), {p['create_rounds']} rounds x "
        f"{p['creates_ours']} (keychaind) / {p['creates_gkr']} (gnome-keyring)")
    new = {}

    def create_cmd(prov, i):
        m = p["creates_ours"] if prov is ours else p["creates_gkr"]
        accounts = [fresh(n * 10 + i * 1000 + j) for j in range(m)]
        new.setdefault(prov.key, []).extend(accounts)
        return {"op": "store", "pairs": [[a, "x" * 24] for a in accounts]}

    r["create"] = {k: summarize(v) for k, v in alternate(both, p["create_rounds"], create_cmd).items()}
    log(f"  n={n}: deleting them again (search + Delete)")
    r["delete"] = {k: summarize(v) for k, v in alternate(
        both, 1, lambda prov, i: {"op": "clear", "accounts": new[prov.key]}).items()}

    log(f"  n={n}: secret-tool lookup, {p['cli']} processes per provider, alternating")
    r["secret_tool_lookup"] = cli_lookups(both, existing_keys(n, p["cli"], n + 1))
    r["bin_true"] = summarize([timed_run(["/bin/true"]) for _ in range(p["cli"])])

    r["memory"] = {prov.key: prov.memory() for prov in both}
    r["file_bytes"] = {prov.key: prov.file_bytes() for prov in both}
    r["items_seen"] = {prov.key: prov.ask(op="count") for prov in both}
    r["loadavg_after"] = loadavg()
    for prov in both:
        assert r["items_seen"][prov.key]["unlocked"] == n, (prov.key, r["items_seen"])
    return r


def timed_run(cmd):
    t = NS()
    subprocess.run(cmd)
    return NS() - t


def versions():
    out = {}
    for pkg in ("gnome-keyring", "libsecret-1-0", "libsecret-tools", "dbus", "python3-gi"):
        p = subprocess.run(["dpkg-query", "-W", "-f=${Version}", pkg], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        out[pkg] = p.stdout.decode() or None
    return out


def machine(command):
    cpu = "?"
    for line in subprocess.run(["lscpu"], stdout=subprocess.PIPE, text=True).stdout.splitlines():
        if line.startswith("Model name"):
            cpu = line.split(":", 1)[1].strip()
    git = subprocess.run(["git", "-C", HERE, "rev-parse", "--short", "HEAD"], stdout=subprocess.PIPE, text=True)
    return {"cpu": cpu, "cores": os.cpu_count(), "kernel": "Linux " + os.uname().release,
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "command": command,
            "commit": git.stdout.strip(), "versions": versions(), "loadavg_start": loadavg()}


def run(args):
    sizes = sorted(int(x) for x in args.sizes.split(","))
    work = tempfile.mkdtemp(prefix="swift-keychain-ss.", dir="/var/tmp")
    res = {"machine": machine(args.command), "sizes": {}, "fill": {}, "notes": []}
    t_start = time.time()
    python = sys.executable
    ours = Ours(os.path.join(work, "ours"), args.keychaind)
    gkr = Gkr(os.path.join(work, "gkr"))
    gkr_gen = 0
    try:
        log(f"starting keychaind and gnome-keyring-daemon, each on its own bus (work folder {work})")
        res["fill"]["start_seconds"] = {"keychaind": round(ours.start(), 3), "gnome-keyring": round(gkr.start(), 3)}
        ours.start_client(python)
        gkr.start_client(python)
        filled = 0
        gkr_store_us = None
        for n in sizes:
            f = {}
            log(f"filling keychaind {filled:,} -> {n:,} items through libsecret (password_store_sync)")
            f["keychaind"] = dict(ours.ask(op="fill", start=filled, end=n), how="libsecret password_store_sync, one per item")
            log(f"  {f['keychaind']['seconds']} s")
            estimate = None if gkr_store_us is None or filled == 0 else \
                (n - filled) * gkr_store_us * (1 + n / filled) / 2 / 1e6
            if estimate is None or estimate <= args.gkr_fill_budget:
                log(f"filling gnome-keyring {filled:,} -> {n:,} items through libsecret (password_store_sync)")
                f["gnome-keyring"] = dict(gkr.ask(op="fill", start=filled, end=n),
                                          how="libsecret password_store_sync, one per item")
            else:
                log(f"gnome-keyring {filled:,} -> {n:,} through D-Bus would take about {estimate / 60:.0f} min: "
                    f"writing its login.keyring with the {n:,} items instead and restarting it")
                gkr.stop()
                gkr_gen += 1
                old = gkr
                gkr = Gkr(os.path.join(work, f"gkr{gkr_gen}"))
                t = NS()
                size = gkr.write_file(n)
                write_s = (NS() - t) / 1e9
                start_s = gkr.start()
                gkr.start_client(python)
                t = NS()
                gkr.ask(op="lookup", pairs=[[filler(n - 1), secret(n - 1)]])
                first_s = (NS() - t) / 1e9
                f["gnome-keyring"] = {
                    "how": "login.keyring written directly (gkr_file.py), daemon restarted to load it",
                    "estimated_dbus_fill_seconds": round(estimate), "write_seconds": round(write_s, 2),
                    "file_bytes": size, "daemon_start_seconds": round(start_s, 3),
                    "first_lookup_seconds": round(first_s, 3)}
                import shutil
                shutil.rmtree(old.root, ignore_errors=True)
            log(f"  {f['gnome-keyring']}")
            res["fill"][str(n)] = f
            filled = n
            res["sizes"][str(n)] = measure(ours, gkr, n, args.quick, python)
            gkr_store_us = res["sizes"][str(n)]["create"]["gnome-keyring"]["median_us"]
            m = res["sizes"][str(n)]
            log(f"  n={n}: lookup median {m['lookup']['keychaind']['median_us']} us (keychaind) vs "
                f"{m['lookup']['gnome-keyring']['median_us']} us (gnome-keyring); create "
                f"{m['create']['keychaind']['median_us']} vs {m['create']['gnome-keyring']['median_us']} us")
            if gkr_gen and n == sizes[-1]:
                res["sizes"][str(n)]["gkr_file_items_after"] = gkr.file_items()
        if args.keychainctl:
            # The same items, seen from the keychain's side (one item, untimed).
            k = sizes[-1] - 1
            p = subprocess.run([args.keychainctl, "find-generic-password", "-s", SERVICE, "-a", filler(k), "-w"],
                               env=ours.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            res["notes"].append(f"keychainctl find-generic-password -w for {filler(k)}: exit {p.returncode}, "
                                f"{'the same secret' if p.stdout.decode().strip() == secret(k) else 'DIFFERENT'}")
    finally:
        ours.stop()
        gkr.stop()
        stop_all()
        import shutil
        shutil.rmtree(work, ignore_errors=True)
    res["machine"]["loadavg_end"] = loadavg()
    res["machine"]["total_seconds"] = round(time.time() - t_start)
    res["targets"] = targets(res, sizes)
    with open(args.out, "w") as f:
        json.dump(res, f, indent=1)
    print(table(res, sizes))
    if args.png:
        plot(res, sizes, args.png)


# ----------------------------------------------------------------------------------------------
# Targets, table, plot.

def targets(res, sizes):
    s = res["sizes"]
    lo, hi = str(sizes[0]), str(sizes[-1])
    med = lambda n, what, who: s[n][what][who]["median_us"]  # noqa: E731
    out = []
    ratio = med(lo, "lookup", "gnome-keyring") / med(lo, "lookup", "keychaind")
    out.append({"target": f"libsecret lookup at {int(lo):,} items: keychaind >= 2x faster than gnome-keyring",
                "value": f"{ratio:.2f}x", "met": ratio >= 2})
    if hi != lo:
        g = med(hi, "lookup", "keychaind") / med(lo, "lookup", "keychaind")
        out.append({"target": f"keychaind lookup growth {int(lo):,} -> {int(hi):,} items: median within 1.3x",
                    "value": f"{g:.2f}x", "met": g <= 1.3})
    ratio = med(lo, "create", "gnome-keyring") / med(lo, "create", "keychaind")
    out.append({"target": f"CreateItem at {int(lo):,} items: keychaind >= 10x faster than gnome-keyring",
                "value": f"{ratio:.1f}x", "met": ratio >= 10})
    for n in (lo, hi) if hi != lo else (lo,):
        a, b = med(n, "secret_tool_lookup", "keychaind"), med(n, "secret_tool_lookup", "gnome-keyring")
        out.append({"target": f"secret-tool lookup at {int(n):,} items: keychaind no slower than gnome-keyring",
                    "value": f"{a / 1000:.2f} ms vs {b / 1000:.2f} ms ({b / a:.2f}x)", "met": a <= b})
    mem = s[hi]["memory"]["keychaind"]
    out.append({"target": f"keychaind memory with {int(hi):,} items under 64 MiB",
                "value": f"VmRSS {mem['vm_rss_kib'] / 1024:.1f} MiB, VmHWM {mem['vm_hwm_kib'] / 1024:.1f} MiB",
                "met": mem["vm_hwm_kib"] < 64 * 1024})
    return out


def fmt_us(x):
    if x is None:
        return "–"
    return f"{x / 1000:.2f} ms" if x >= 1000 else f"{x:.0f} µs"


def cell(st):
    return f"{fmt_us(st['median_us'])} ({fmt_us(st['p10_us'])}–{fmt_us(st['p90_us'])})"


def table(res, sizes):
    s = res["sizes"]
    lines = ["| measure | items | keychaind, median (p10–p90) | gnome-keyring, median (p10–p90) | gnome-keyring / keychaind |",
             "|---|---:|---:|---:|---:|"]
    rows = [("libsecret lookup (password_lookup_sync)", "lookup"), ("CreateItem (password_store_sync, new item)", "create"),
            ("delete (password_clear_sync)", "delete"), ("`secret-tool lookup`, process start to exit", "secret_tool_lookup")]
    for title, what in rows:
        for n in sizes:
            a, b = s[str(n)][what]["keychaind"], s[str(n)][what]["gnome-keyring"]
            lines.append(f"| {title} | {n:,} | {cell(a)} | {cell(b)} | {b['median_us'] / a['median_us']:.2f}× |")
    if len(sizes) > 1:
        lo, hi = str(sizes[0]), str(sizes[-1])
        g = {k: s[hi]["lookup"][k]["median_us"] / s[lo]["lookup"][k]["median_us"] for k in ("keychaind", "gnome-keyring")}
        lines.append(f"| lookup growth, median {int(hi):,} / {int(lo):,} | | {g['keychaind']:.2f}× | {g['gnome-keyring']:.2f}× | |")
    for n in sizes:
        m = s[str(n)]["memory"]
        a, b = m["keychaind"], m["gnome-keyring"]
        lines.append(f"| daemon VmRSS / VmHWM | {n:,} | {a['vm_rss_kib'] / 1024:.1f} / {a['vm_hwm_kib'] / 1024:.1f} MiB | "
                     f"{b['vm_rss_kib'] / 1024:.1f} / {b['vm_hwm_kib'] / 1024:.1f} MiB | |")
    lines += ["", "The D-Bus calls behind one lookup (raw GDBus calls, medians):", "",
              "| call | items | keychaind | gnome-keyring |", "|---|---:|---:|---:|"]
    for name in ("ping", "search_items", "get_secret", "open_session_plain", "open_session_dh"):
        for n in sizes:
            c = s[str(n)]["calls"]
            lines.append(f"| {name} | {n:,} | {fmt_us(c['keychaind'][name]['median_us'])} | "
                         f"{fmt_us(c['gnome-keyring'][name]['median_us'])} |")
    lines += ["", "| target | measured | met |", "|---|---|---|"]
    for t in res["targets"]:
        lines.append(f"| {t['target']} | {t['value']} | {'yes' if t['met'] else '**no**'} |")
    return "\n".join(lines)


def plot(res, sizes, png):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        log("matplotlib is not installed (Debian: python3-matplotlib): no plot")
        return
    s = res["sizes"]
    panels = [("lookup", "libsecret lookup"), ("create", "CreateItem (new item)"),
              ("secret_tool_lookup", "secret-tool lookup (process)")]
    fig, axes = plt.subplots(1, len(panels), figsize=(13, 4.2))
    colors = {"keychaind": "tab:blue", "gnome-keyring": "tab:orange"}
    for ax, (what, title) in zip(axes, panels):
        for who in ("keychaind", "gnome-keyring"):
            med = [s[str(n)][what][who]["median_us"] / 1000 for n in sizes]
            lo = [m - s[str(n)][what][who]["p10_us"] / 1000 for m, n in zip(med, sizes)]
            hi = [s[str(n)][what][who]["p90_us"] / 1000 - m for m, n in zip(med, sizes)]
            ax.errorbar(sizes, med, yerr=[lo, hi], marker="o", capsize=4, label=who, color=colors[who])
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xticks(sizes)
        ax.set_xticklabels([f"{n:,}" for n in sizes])
        ax.set_xlabel("items in the store")
        ax.set_ylabel("ms per operation (median, p10–p90)")
        ax.set_title(title)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
    fig.suptitle(f"Secret Service: keychaind vs gnome-keyring-daemon ({res['machine']['date']}, "
                 f"{res['machine']['cores']} cores, shared VM)")
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    log(f"wrote {png}")


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "worker":
        return worker()
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=["run"])
    ap.add_argument("--keychaind", required=True)
    ap.add_argument("--keychainctl")
    ap.add_argument("--out", required=True)
    ap.add_argument("--png")
    ap.add_argument("--sizes", default="1000,10000")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--gkr-fill-budget", type=float, default=180,
                    help="seconds gnome-keyring may spend filling through D-Bus before its file is written instead")
    ap.add_argument("--command", default="Benchmarks/secret-service.sh")
    args = ap.parse_args()
    # SIGTERM (the shell's trap) ends the run through the finally clauses, which stop everything.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    run(args)


if __name__ == "__main__":
    main()
